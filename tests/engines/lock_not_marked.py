"""play forgets to mark the Echo-Lock as used in the first 4 half-moves: the
mover's L flag is missing from the position it answers."""

from _wrap import run

from checker.notation import parse_hpn, position_to_hpn


def distort(request, answer):
    if request.get("op") == "play" and "#" in request["turn"] and "position" in answer:
        before = parse_hpn(request["position"])
        if before.half_moves < 4:
            after = parse_hpn(answer["position"])
            mover = before.to_move
            cleared = after.player(mover).replace(echo_lock_used=False)
            answer["position"] = position_to_hpn(after.replace(**{mover: cleared}))
    return answer


if __name__ == "__main__":
    run(distort)
