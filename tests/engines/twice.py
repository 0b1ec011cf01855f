"""Lists one turn of the start twice, in two spellings ("c3 +d4" and
"C3 +D4"): the same turn, so the turn sets agree but the count does not."""

from _wrap import START, run


def distort(request, answer):
    if request.get("op") == "legal-turns" and request.get("position") == START:
        answer["turns"].append("C3 +D4")
    return answer


if __name__ == "__main__":
    run(distort)
