"""The published perft table: ``checker/data/perft.json`` and docs/perft.md,
made from it.  ``make perft`` (``python -m checker.tools.perft_table build``)
counts the positions of :data:`TABLE_POSITIONS` afresh with
:func:`checker.counting.perft` and rewrites both; :func:`load_table` reads the
table (``hexodic-check conform`` compares an engine's counts with it).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from checker.counting import perft
from checker.notation import parse_hpn, position_to_hpn
from checker.position import Position
from checker.version import RULES_VERSION

__all__ = ["TableEntry", "TABLE_POSITIONS", "load_table", "build_table", "table_json", "table_markdown", "main"]

TABLE = "perft.json"
FORMAT = "hexodic-perft"
VERSION = 1
DOC = Path("docs") / "perft.md"


@dataclass(frozen=True, slots=True)
class TableEntry:
    """One position of the published table: ``nodes[d - 1]`` is perft(d)."""

    name: str
    description: str
    hpn: str
    nodes: tuple[int, ...]

    @property
    def position(self) -> Position:
        return parse_hpn(self.hpn)


# The positions of the table and how deep each is counted.  Where each comes from is in its description; a
# "uniform random game N" is played from the start with random.Random(N), each turn rng.choice(legal_turns(pos)).
TABLE_POSITIONS: tuple[tuple[str, str, str, int], ...] = (
    (
        "start",
        "The start position: empty tier-0 board, A to move, both reserves full.",
        "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0",
        3,
    ),
    (
        "early",
        "Early game (bench/run.py `early`): seeded random game 0 after 6 half-moves; three stones "
        "each, six tier-1 cells, A to move with 4 in reserve.",
        "100B0/00100/000A00B0/00100A00/100010/01A000/000B0 A 4:3:6:0:3:P:- 4:3:6:0:3:P:- 6",
        2,
    ),
    (
        "crowded",
        "Crowded midgame (bench/run.py `crowded`): seeded random game 4 after 22 half-moves; all 14 "
        "stones on the board, both reserves empty (Moves only), stones on every tier, a2 Echo-Locked "
        "by B.",
        "0B2*0B0A/02A111A/1001B00/2A001101/0A0B01A11/0200B0B/00A01B A 0:3:6:1:11:P:- 0:2:5:0:10:PL:- 22",
        2,
    ),
    (
        "placing",
        "Placing midgame (bench/run.py `placing`): B to move at half-move 13 with one stone in "
        "reserve, the most legal turns a search found (24 cells to Place on, many Shapes, up to 7 "
        "Echoes each).",
        "0000B/00002B/011000/00102B0B0A/0002B1A1A/000A1A0B/000A1A B 0:3:6:0:7:P:- 1:3:6:0:6:P:- 13",
        2,
    ),
    (
        "endgame",
        "Endgame of Moves (bench/run.py `endgame`): seeded random game 0 after 49 half-moves; both "
        "reserves empty, both lowering budgets spent, f4 Echo-Locked by A.",
        "2100/001B01B/00A21A00/00A01B210/21A1B0B2B0/0A2A*110/101A1B B 0:2:0:0:19:PL:- 0:3:0:4:18:P:- 49",
        2,
    ),
    (
        "cooldown-skip",
        "The cooldown skip (RULES §4, D-4), built by hand: A to move with 5 stones in reserve "
        "and a capture cooldown on b2, b4, d2, d6 and f5; every empty cell is within 1 step of "
        "one of them, so A's Project and Shape are skipped. A may still Echo: skip, skip *g7 "
        "(B's sealed tier-1 stone beside A's f6) or skip #d4 (A's tier-2 stone).",
        "0000/00B000/000000/0002A000/00B0000/0B000A0B/0B00B1B A 5:3:6:0:2:P:b2,b4,d2,d6,f5 0:3:6:5:1:P:- 20",
        2,
    ),
    (
        "locks",
        "Locks and spent Echo charges: uniform random game 33 after 34 half-moves; both players have "
        "used their Echo-Lock (b3 and d7 are locked), B has no charge left, A has a capture cooldown "
        "on g7.",
        "0100A/002A*00/00A00B0B2/02110B02*/00B0210A/00B00A0B/11B0A2 A 1:2:3:2:14:PL:g7 0:0:1:3:12:PL:- 34",
        2,
    ),
    (
        "takeover-threat",
        "One capture from a Takeover: uniform random game 3 after 53 half-moves; B "
        "has captured 5 stones, and the turns that capture a sixth end the game, so nothing "
        "follows them at depth 2.",
        "0A1A0A0/11A1B11/112B0A22/00A0B2B20B1A/00012*1B/212*00/010B0 B 0:2:0:0:21:PL:- 0:2:0:5:20:PL:- 53",
        2,
    ),
    (
        "last-half-move",
        "Half-move 59 of 60: seeded random game 0 (bench/find_positions.py) before its last "
        "turn; every turn reaches the half-move cap and ends the game, so perft(2) is 0.",
        "2110/101B01B/0A1A211A0/010B121B0/2A21A12B*1/02*21B1/10A1A1B B 0:2:0:1:24:PL:- 0:2:0:4:23:PL:- 59",
        2,
    ),
    (
        "game-over",
        "The game is over: uniform random game 30 after 53 half-moves, just ended by A's Network "
        "(five of A's stones on tier-2 cells form one group: a3, b2, b3, b4, c4); no legal turn.",
        "012A0/1B2A2A*2A0/0B102A11A/200220A0/0B01B010/1B2*1B00/2B000 B 0:2:0:0:21:PL:- 0:2:0:5:20:PL:- 53",
        2,
    ),
)


def load_table() -> list[TableEntry]:
    """The published table, from the package data."""
    data = json.loads(resources.files("checker.data").joinpath(TABLE).read_text(encoding="utf-8"))
    return [TableEntry(e["name"], e["description"], e["position"], tuple(e["nodes"])) for e in data["positions"]]


def build_table() -> list[TableEntry]:
    """The table counted afresh from :data:`TABLE_POSITIONS`."""
    out = []
    for name, description, hpn, depth in TABLE_POSITIONS:
        pos = parse_hpn(hpn)
        assert pos.problems() == [], (name, pos.problems())
        out.append(
            TableEntry(name, description, position_to_hpn(pos), tuple(perft(pos, d) for d in range(1, depth + 1)))
        )
    return out


def table_json(entries: list[TableEntry]) -> str:
    data = {
        "format": FORMAT,
        "version": VERSION,
        "rules_version": RULES_VERSION,
        "positions": [
            {"name": e.name, "description": e.description, "position": e.hpn, "nodes": list(e.nodes)} for e in entries
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def table_markdown(entries: list[TableEntry]) -> str:
    """docs/perft.md, made from the table."""
    deepest = max(len(e.nodes) for e in entries)
    head = "| position | " + " | ".join(f"depth {d}" for d in range(1, deepest + 1)) + " |"
    rule = "| --- | " + " | ".join("---:" for _ in range(deepest)) + " |"
    rows = [
        f"| `{e.name}` | " + " | ".join(f"{e.nodes[d]:,}" if d < len(e.nodes) else "" for d in range(deepest)) + " |"
        for e in entries
    ]
    positions = []
    for e in entries:
        positions += [f"### `{e.name}`", "", e.description, "", "```", e.hpn, "```", ""]
    return "\n".join(PREAMBLE + [head, rule] + rows + ["", "## The positions", ""] + positions)


PREAMBLE = [
    "# Perft: counts of legal turn sequences",
    "",
    "<!-- Generated by `make perft` from checker/data/perft.json; do not edit. -->",
    "",
    "perft(*d*) of a position is the number of legal turn sequences of length *d* from it, the way chess",
    "programmers prove a move generator. An engine whose counts agree with this table at every depth",
    "generates the same turns as the checker; where a count differs, `hexodic-check conform` (README,",
    '"Testing your engine in CI") descends to the position whose legal turns differ.',
    "",
    "What is counted:",
    "",
    "- perft(0) is 1: the empty sequence.",
    "- A position where the game is over (Takeover, Network, Strangle, the half-move cap) has no legal",
    "  turn, so a turn that ends the game ends its sequence.",
    "- No history is carried: a repetition or a threefold never ends a sequence (without a history",
    "  they cannot be judged; a position's legal turns never depend on it).",
    "- Each distinct legal turn counts once (the turns of `POST /v1/legal-turns`).",
    "",
    "Check them yourself: `hexodic-check perft POSITION --depth 2 [--divide]`, or",
    '`POST /v1/perft {"position": ..., "depth": 2, "divide": true}`.',
    "",
    "## The table",
    "",
]


def doc_path(root: Path | None = None) -> Path:
    """docs/perft.md of the checkout this module runs from."""
    return (root or Path(__file__).resolve().parents[2]) / DOC


def main(argv: list[str] | None = None) -> int:
    """``python -m checker.tools.perft_table build`` recounts the table and rewrites
    checker/data/perft.json and docs/perft.md."""
    args = sys.argv[1:] if argv is None else argv
    if args != ["build"]:
        print("usage: python -m checker.tools.perft_table build", file=sys.stderr)
        return 2
    entries = build_table()
    target = resources.files("checker.data").joinpath(TABLE)
    with resources.as_file(target) as path:
        path.write_text(table_json(entries), encoding="utf-8")
    doc_path().write_text(table_markdown(entries), encoding="utf-8")
    for e in entries:
        print(e.name, *e.nodes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
