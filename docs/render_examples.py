"""Regenerate the example pictures in docs/ with checker.drawing.svg and checker.drawing.png.

Run from the repository root:

    .venv/bin/python docs/render_examples.py

Writes docs/board-start.png (the start position), docs/board-verdict.png (an
illegal turn: a Move onto a stone on the same Tier, a Shape out of range and
a second Echo-Lock) and docs/board-legal.png (a legal turn: a Move, a lower
and an Echo-Capture that captures).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.drawing.png import svg_to_png  # noqa: E402
from checker.drawing.svg import render_svg  # noqa: E402
from checker.legality import check  # noqa: E402
from checker.notation import parse_hpn, parse_htn  # noqa: E402
from checker.position import Position  # noqa: E402

# A mid-game position: A's reserve is empty (so A Moves), A has Echo-Locked c4,
# B's stone on d4 (Tier 1) has no empty neighbour.
MIDGAME = "0000/00A200/001A2A*1B0/001A1B0A00/001A2A1B0/01B2B00/0000 A 0:2:5:0:8:PL:- 2:3:6:0:8:P:- 18"

# The same, but B's stone on d5 (Tier 0) touches d4: d4 is not encircled, yet
# an Echo-Capture weighs d5 like edge (D-10): 1 + 2 + 1 + 1 + 1 + 2 = 8 > 6.
ECHO = "0000/00A200/001A2A*1B0/001A1B0B00/001A1A1B0/01B2B0A0/0000 A 0:2:5:0:8:PL:- 1:3:6:0:7:P:- 18"

EXAMPLES = {
    "board-start.png": (Position.start(), None),
    "board-verdict.png": (parse_hpn(MIDGAME), parse_htn("c3-d4 +g7 #e5")),
    "board-legal.png": (parse_hpn(ECHO), parse_htn("b2-c2 -b3 *d4")),
}


def main() -> None:
    out_dir = ROOT / "docs"
    for name, (position, turn) in EXAMPLES.items():
        svg = render_svg(position, verdict=None if turn is None else check(position, turn))
        path = out_dir / name
        path.write_bytes(svg_to_png(svg, 400))
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
