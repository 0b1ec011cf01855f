"""Lists one turn too many at the start: "d4 +d4", A's first Place on the
centre (the opening restriction forbids it)."""

from _wrap import START, run


def distort(request, answer):
    if request.get("op") == "legal-turns" and request.get("position") == START:
        answer["turns"].append("d4 +d4")
    return answer


if __name__ == "__main__":
    run(distort)
