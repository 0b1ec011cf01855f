"""Lists one turn of the start twice in the same spelling ("c3 +d4" and
"c3 +d4"): as a set its list is right, but it lists a turn twice."""

from _wrap import START, run


def distort(request, answer):
    if request.get("op") == "legal-turns" and request.get("position") == START:
        answer["turns"].append("c3 +d4")
    return answer


if __name__ == "__main__":
    run(distort)
