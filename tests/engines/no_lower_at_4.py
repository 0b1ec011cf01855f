"""Offers no lowering Shape when exactly 4 stones are on the board (an early-game bug)."""

from _wrap import run

from checker.notation import parse_hpn


def distort(request, answer):
    if request.get("op") == "legal-turns":
        pos = parse_hpn(request["position"])
        if sum(s is not None for s in pos.stones) == 4:
            answer["turns"] = [t for t in answer["turns"] if " -" not in t]
    return answer


if __name__ == "__main__":
    run(distort)
