"""Misses one turn only at depth 2: after A's "c3 +d4" from the start, B's
"e5 +e4" is left out of legal-turns (every other position is right)."""

from _wrap import run

AFTER_C3_D4 = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"


def distort(request, answer):
    if request.get("op") == "legal-turns" and request.get("position") == AFTER_C3_D4:
        answer["turns"].remove("e5 +e4")
    return answer


if __name__ == "__main__":
    run(distort)
