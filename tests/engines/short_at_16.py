"""Lists one legal turn too few in every position at half-move 16: a bug that
only perft from the positions the default run compares reaches (none of the
early game's or the milestones' positions is at half-move 16; the children
of the one at 15 are)."""

from _wrap import run

from checker.notation import parse_hpn


def distort(request, answer):
    if request.get("op") == "legal-turns" and parse_hpn(request["position"]).half_moves == 16:
        answer["turns"] = answer["turns"][1:]
    return answer


if __name__ == "__main__":
    run(distort)
