"""Answers legal-turns under the key "moves" instead of "turns" (a key missing,
another unexpected)."""

from _wrap import run


def distort(request, answer):
    if request.get("op") == "legal-turns":
        answer["moves"] = answer.pop("turns")
    return answer


if __name__ == "__main__":
    run(distort)
