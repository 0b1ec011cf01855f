"""Adds shape.range to every illegal check answer that does not already hold it:
an engine that reports one violation too many."""

from _wrap import run


def distort(request, answer):
    if request.get("op") == "check" and answer.get("legal") is False and "shape.range" not in answer["violations"]:
        answer["violations"] = [*answer["violations"], "shape.range"]
    return answer


if __name__ == "__main__":
    run(distort)
