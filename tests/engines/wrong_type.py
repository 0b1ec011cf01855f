"""Answers check with legal as the text "no" instead of a boolean."""

from _wrap import run


def distort(request, answer):
    if request.get("op") == "check":
        answer["legal"] = "no" if answer["legal"] is False else "yes"
    return answer


if __name__ == "__main__":
    run(distort)
