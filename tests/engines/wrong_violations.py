"""Answers check with a wrong rule: place.empty for place.opening-restriction.
It also writes every violation list backwards, which must not matter
(violations are compared as sets)."""

from _wrap import run


def distort(request, answer):
    if request.get("op") == "check":
        answer["violations"] = [
            "place.empty" if v == "place.opening-restriction" else v for v in reversed(answer["violations"])
        ]
    return answer


if __name__ == "__main__":
    run(distort)
