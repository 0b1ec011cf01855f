"""Drawing positions and verdicts: checker.drawing.svg.render_svg.

The SVG is parsed with xml.etree.ElementTree (so it must be well-formed) and
read back through the ids and data attributes the playground relies on.
Expected values come from RULES.md by hand:

- D-1: the 37 cells are a1–a4, b1–b5, c1–c6, d1–d7, e2–e7, f3–f7, g4–g7.
- §1: the neighbours of (i, j) are (i, j±1), (i±1, j), (i−1, j−1), (i+1, j+1);
  drawn as a regular hexagon board, every pair of neighbours is the same
  distance apart and every other pair is farther.
- §4: A's first Place on d4 fails the opening restriction (d4 is the centre);
  a Shape on c3 after landing on d4 is in range (c3 = (3,3), d4 = (4,4):
  di = dj = −1, 1 step).
"""

from __future__ import annotations

import math
import random
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from checker import board
from checker.drawing.svg import render_svg
from checker.generate import legal_turns
from checker.legality import Check, InconsistentPosition, Status, Verdict, check
from checker.notation import parse_hpn, turn_to_htn
from checker.play import apply
from checker.position import Position
from tests.helpers import C, T, build

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent

# D-1, written out by hand: row letter, first and last column.
ROW_SPANS = {"a": (1, 4), "b": (1, 5), "c": (1, 6), "d": (1, 7), "e": (2, 7), "f": (3, 7), "g": (4, 7)}
ALL_NAMES = [f"{r}{c}" for r, (lo, hi) in ROW_SPANS.items() for c in range(lo, hi + 1)]

# A mid-game position (RULES §10 HPN).  Rows, cell by cell:
#   a: a1 0, a2 0, a3 0, a4 0
#   b: b1 0, b2 0A, b3 2, b4 0, b5 0
#   c: c1 0, c2 0, c3 1A, c4 2A locked, c5 1B, c6 0
#   d: d1 0, d2 0, d3 1A, d4 1B, d5 0A, d6 0, d7 0
#   e: e2 0, e3 0, e4 1A, e5 2A, e6 1B, e7 0
#   f: f3 0, f4 1B, f5 2B, f6 0, f7 0
#   g: g4 0, g5 0, g6 0, g7 0
# A: reserve 0, 2 charges, 5 lowers left, Echo-Lock used (c4).  B: 2 in reserve.
MIDGAME = "0000/00A200/001A2A*1B0/001A1B0A00/001A2A1B0/01B2B00/0000 A 0:2:5:0:8:PL:- 2:3:6:0:8:P:- 18"
MID_CELLS = {
    "b2": (0, "A", False),
    "b3": (2, None, False),
    "c3": (1, "A", False),
    "c4": (2, "A", True),
    "c5": (1, "B", False),
    "d3": (1, "A", False),
    "d4": (1, "B", False),
    "d5": (0, "A", False),
    "e4": (1, "A", False),
    "e5": (2, "A", False),
    "e6": (1, "B", False),
    "f4": (1, "B", False),
    "f5": (2, "B", False),
}


# ------------------------------------------------------------ helpers ------


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def cells(root: ET.Element) -> dict[str, ET.Element]:
    """The cell groups by cell name."""
    out = {}
    for g in root.iter(NS + "g"):
        if g.get("class") == "cell":
            name = g.get("id").removeprefix("cell-")
            assert name not in out
            out[name] = g
    return out


def lit(root: ET.Element) -> set[str]:
    return {n for n, g in cells(root).items() if g.get("data-highlight") == "true"}


def texts(el: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in el.iter(NS + "text")]


def by_id(root: ET.Element, ident: str) -> ET.Element | None:
    return next((e for e in root.iter() if e.get("id") == ident), None)


def hex_centre(g: ET.Element) -> tuple[float, float]:
    poly = next(p for p in g.iter(NS + "polygon") if p.get("class") == "hex")
    pts = [tuple(map(float, p.split(","))) for p in poly.get("points").split()]
    assert len(pts) == 6
    return sum(x for x, _ in pts) / 6, sum(y for _, y in pts) / 6


def failed_cells(position, turn, history=None) -> set[str]:
    v = check(position, turn, history)
    return {n for c in v.checks if c.status == "failed" for n in c.cells}


def caption(root: ET.Element) -> tuple[str, list[str]]:
    cap = by_id(root, "caption")
    assert cap is not None
    head = next(t for t in cap.iter(NS + "text") if t.get("class") == "verdict")
    lines = ["".join(t.itertext()) for t in cap.iter(NS + "text") if t.get("class") == "summary"]
    return "".join(head.itertext()), lines


def judged(position, turn, history=None, highlight=()) -> str:
    """The picture of ``turn``'s verdict, judged first as the callers do (render never judges)."""
    return render_svg(position, highlight, check(position, turn, history))


def mid() -> Position:
    pos = parse_hpn(MIDGAME)
    assert pos.problems() == []
    return pos


# ------------------------------------------------------- the document ------


def test_root_is_a_400_px_accessible_svg():
    svg = render_svg(Position.start())
    root = parse(svg)
    assert root.get("width") == "400"
    vb = [float(v) for v in root.get("viewBox").split()]
    assert len(vb) == 4 and vb[0] == 0 and vb[1] == 0 and vb[2] == 400 and vb[3] > 300
    assert float(root.get("height")) == vb[3]  # same aspect, no distortion
    assert root.get("role") == "img"
    title, desc = root.find(NS + "title"), root.find(NS + "desc")
    assert title is not None and "A to move" in title.text
    assert desc is not None and "0000/00000/000000/0000000/000000/00000/0000" in desc.text


def test_37_cell_groups_named_as_in_d1():
    root = parse(render_svg(Position.start()))
    groups = cells(root)
    assert len(ALL_NAMES) == 37
    assert sorted(groups) == sorted(ALL_NAMES)
    for name, g in groups.items():
        assert g.get("id") == f"cell-{name}"
        assert name in texts(g)  # the name is written in the cell


def test_header_and_legend():
    root = parse(render_svg(mid()))
    header = " ".join(texts(by_id(root, "header")))
    assert "A to move" in header and "18 of 60 half-moves" in header
    legend = " ".join(texts(by_id(root, "legend")))
    for word in ("Tier 0", "Tier 1", "Tier 2", "A's Stone", "B's Stone", "locked", "highlighted"):
        assert word in legend
    # The verdict marks get a legend only when there is a verdict.
    assert "Echo-Capture" not in legend
    legend2 = " ".join(texts(by_id(parse(judged(mid(), T("b2-c2 +c2 *d4"))), "legend")))
    for word in ("Place", "Move", "Shape", "Echo-Capture", "Echo-Lock"):
        assert word in legend2


def test_header_names_b_to_move():
    pos = build({"c3": "1A"}, to_move="B")
    root = parse(render_svg(pos))
    assert f"B to move · {pos.half_moves} of 60" in " ".join(texts(by_id(root, "header")))


# ----------------------------------------------------------- the cells ------


def test_cell_data_matches_a_built_position():
    spec = {"a1": "2A", "c3": "1B", "c4": "2A*", "d4": "1", "e5": "2B", "g7": "2", "f3": "0B"}
    pos = build(spec)
    root = parse(render_svg(pos))
    groups = cells(root)
    for name in ALL_NAMES:
        text = spec.get(name, "0")
        tier = text[0]
        stone = "A" if "A" in text else "B" if "B" in text else "empty"
        locked = "true" if "*" in text else "false"
        g = groups[name]
        assert (g.get("data-tier"), g.get("data-stone"), g.get("data-locked")) == (tier, stone, locked), name
        assert g.get("data-highlight") == "false"
        shown = texts(g)
        assert tier in shown  # the tier digit, not colour alone
        if stone != "empty":
            assert stone in shown  # the stone's letter, not colour alone
        else:
            assert "A" not in shown and "B" not in shown
        is_lock = [e for e in g.iter() if e.get("class") in ("lock", "lock-glyph")]
        assert bool(is_lock) == (locked == "true"), name


def test_cell_titles_read_aloud():
    pos = build({"c4": "2A*", "c3": "1B", "d4": "1"})
    groups = cells(parse(render_svg(pos, highlight=[C("d4")])))
    title = lambda n: groups[n].find(NS + "title").text  # noqa: E731
    assert title("c4") == "c4: Tier 2, A's Stone, locked"
    assert title("c3") == "c3: Tier 1, B's Stone"
    assert title("a1") == "a1: Tier 0, no Stone"
    assert title("d4") == "d4: Tier 1, no Stone, highlighted"


def test_tiers_are_shaded_light_to_dark():
    pos = build({"a1": "0", "a2": "1", "a3": "2"})
    groups = cells(parse(render_svg(pos)))

    def luminance(name):
        poly = next(p for p in groups[name].iter(NS + "polygon") if p.get("class") == "hex")
        h = poly.get("fill").lstrip("#")
        r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    assert luminance("a1") > luminance("a2") > luminance("a3")


def test_stones_have_distinct_fills():
    groups = cells(parse(render_svg(mid())))
    fill = lambda n: next(groups[n].iter(NS + "circle")).get("fill")  # noqa: E731
    assert fill("c3") == fill("b2") != fill("d4") == fill("c5")


def test_the_board_is_a_regular_hexagon_with_row_a_on_top():
    groups = cells(parse(render_svg(Position.start())))
    centre = {n: hex_centre(g) for n, g in groups.items()}

    def neighbours(a, b):  # RULES §1, from the names
        (i1, j1), (i2, j2) = (ord(a[0]) - 96, int(a[1])), (ord(b[0]) - 96, int(b[1]))
        return (i1 - i2, j1 - j2) in {(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)}

    pairs = [(a, b) for a in ALL_NAMES for b in ALL_NAMES if a < b]
    near = [math.dist(centre[a], centre[b]) for a, b in pairs if neighbours(a, b)]
    assert len(near) == 90  # (19·6 + 6·3 + 12·4) / 2 neighbouring pairs
    assert max(near) - min(near) < 0.3  # every pair equally far apart (coordinates to 0.1 px)
    step = min(near)
    assert 45 < step < 60  # big enough to write in at 400 px
    assert all(math.dist(centre[a], centre[b]) > step * 1.5 for a, b in pairs if not neighbours(a, b))
    assert centre["a1"][1] < centre["d4"][1] < centre["g7"][1]
    assert centre["d1"][0] < centre["d4"][0] < centre["d7"][0]
    # d4 sits mid-width, and every cell is on the 400 px canvas.
    assert abs(centre["d4"][0] - 200) < 1
    assert all(20 < x < 380 for x, _ in centre.values())


# ------------------------------------------------------ the highlight ------


def test_highlight_is_exactly_the_cells_asked():
    root = parse(render_svg(mid(), highlight=[C("a1"), C("d4"), C("g7")]))
    assert lit(root) == {"a1", "d4", "g7"}
    for name, g in cells(root).items():
        outline = [p for p in g.iter(NS + "polygon") if p.get("class") == "highlight"]
        assert bool(outline) == (name in {"a1", "d4", "g7"})


def test_no_highlight_by_default_and_any_iterable_works():
    assert lit(parse(render_svg(mid()))) == set()
    assert lit(parse(render_svg(mid(), highlight=iter([C("c4")])))) == {"c4"}
    assert lit(parse(render_svg(mid(), highlight={C("b2"), C("b3")}))) == {"b2", "b3"}


def test_highlight_differs_from_the_lock_mark():
    g = cells(parse(render_svg(mid(), highlight=[C("c4")])))["c4"]
    lock = next(p for p in g.iter(NS + "polygon") if p.get("class") == "lock")
    outline = next(p for p in g.iter(NS + "polygon") if p.get("class") == "highlight")
    assert lock.get("stroke-dasharray") and not outline.get("stroke-dasharray")
    assert lock.get("stroke") != outline.get("stroke")
    assert float(outline.get("stroke-width")) > 2


@pytest.mark.parametrize("bad", [37, -1, 3.0, True, "h9"])
def test_highlight_rejects_what_is_not_a_cell(bad):
    with pytest.raises(ValueError):
        render_svg(Position.start(), highlight=[bad])


# --------------------------------------------------------- the verdict ------


def test_start_d4_plus_c3_highlights_exactly_d4():
    # RULES §4: the first Place may not be on the centre d4 (opening
    # restriction); nothing else fails (c3 is 1 step from d4, §5).
    root = parse(judged(Position.start(), T("d4 +c3")))
    assert lit(root) == {"d4"}
    head, lines = caption(root)
    assert head.startswith("Illegal") and "d4 +c3" in head
    body = " ".join(lines)
    assert "centre" in body
    place = by_id(root, "project-mark")
    assert (place.get("data-kind"), place.get("data-cell")) == ("place", "d4")
    shape = by_id(root, "shape-mark")
    assert (shape.get("data-kind"), shape.get("data-cell")) == ("raise", "c3")
    assert "+" in texts(shape)
    assert by_id(root, "echo-mark") is None


def test_start_c3_plus_d4_is_legal_with_no_highlight():
    root = parse(judged(Position.start(), T("c3 +d4")))
    assert lit(root) == set()
    head, lines = caption(root)
    assert head.startswith("Legal") and "c3 +d4" in head
    assert "Places on c3" in " ".join(lines)


def test_midgame_illegal_turn_highlights_every_failed_cell():
    # c3xd4: d4 holds B on Tier 1, c3 is Tier 1 — not strictly lower
    # (move.destination: c3, d4).  +g7: g7 = (7,7), d4 = (4,4), 3 steps from
    # the landing cell (shape.range: g7, d4).  #e5: A has Echo-Locked c4
    # already (echo-lock.once, no cell).  So c3, d4 and g7.
    pos, turn = mid(), T("c3-d4 +g7 #e5")
    root = parse(judged(pos, turn))
    assert lit(root) == {"c3", "d4", "g7"} == failed_cells(pos, turn)
    head, lines = caption(root)
    assert head.startswith("Illegal") and "c3xd4 +g7 #e5" in head
    move = by_id(root, "project-mark")
    assert (move.get("data-kind"), move.get("data-from"), move.get("data-to")) == ("move", "c3", "d4")
    shape = by_id(root, "shape-mark")
    assert (shape.get("data-kind"), shape.get("data-cell")) == ("raise", "g7")
    echo = by_id(root, "echo-mark")
    assert (echo.get("data-kind"), echo.get("data-cell")) == ("lock", "e5")
    assert "#" in texts(echo)


def test_midgame_legal_turn_with_lower_and_echo_capture():
    # b2-c2: reserve empty, b2 holds A, c2 = (3,2) neighbours b2 = (2,2), c2 empty.
    # -b3: b3 = (2,3) is Tier 2, 2 steps from c2 (di = −1, dj = 1), 5 lowers left.
    # *d4: B on Tier 1, neighbours c3 c4 d3 d5 e4 e5 all A (sealed, contact), A has 2 charges.
    pos, turn = mid(), T("b2-c2 -b3 *d4")
    root = parse(judged(pos, turn))
    assert lit(root) == set()
    head, _ = caption(root)
    assert head.startswith("Legal")
    shape = by_id(root, "shape-mark")
    assert (shape.get("data-kind"), shape.get("data-cell")) == ("lower", "b3")
    assert "\u2212" in texts(shape)
    echo = by_id(root, "echo-mark")
    assert (echo.get("data-kind"), echo.get("data-cell")) == ("capture", "d4")
    assert "*" in texts(echo)


def test_marks_are_drawn_on_their_cells():
    pos, turn = mid(), T("b2-c2 -b3 *d4")
    root = parse(judged(pos, turn))
    groups = cells(root)
    centre = {n: hex_centre(g) for n, g in groups.items()}
    step = math.dist(centre["a1"], centre["a2"])
    for ident, name in (("shape-mark", "b3"), ("echo-mark", "d4")):
        circle = next(by_id(root, ident).iter(NS + "circle"))
        at = (float(circle.get("cx")), float(circle.get("cy")))
        # nearer to its own cell's centre than to any other cell's
        assert min(centre, key=lambda n: math.dist(centre[n], at)) == name
        assert math.dist(centre[name], at) < step / 2
    # The Move arrow runs from b2 towards c2: its tip is nearest c2's centre,
    # its start nearest b2's.
    arrow = by_id(root, "project-mark")
    head = [p for p in arrow.iter(NS + "polygon")][-1]
    tip = tuple(map(float, head.get("points").split()[0].split(",")))
    assert min(centre, key=lambda n: math.dist(centre[n], tip)) == "c2"
    path = [p for p in arrow.iter(NS + "path")][-1]
    start = tuple(map(float, re.match(r"M([-\d.]+) ([-\d.]+)", path.get("d")).groups()))
    assert min(centre, key=lambda n: math.dist(centre[n], start)) == "b2"


def test_place_mark_sits_on_its_cell():
    root = parse(judged(Position.start(), T("a1 +a2")))
    centre = hex_centre(cells(root)["a1"])
    ring = next(by_id(root, "project-mark").iter(NS + "circle"))
    assert math.dist(centre, (float(ring.get("cx")), float(ring.get("cy")))) < 3


def test_skip_has_no_project_mark():
    # A declared skip with no capture cooldown fails project.skip (RULES §4, D-4).
    root = parse(judged(Position.start(), T("skip")))
    assert by_id(root, "project-mark") is None
    head, _ = caption(root)
    assert head.startswith("Illegal")


START = Position.start()
SAMPLES = [
    (START, "d4 +c3"),
    (START, "c3 +d4"),
    (START, "c3 +g7"),  # shape.range
    (START, "c3"),  # shape.mandate
    (START, "c3-c4 +c4 *d4"),  # a Move with a full reserve, an Echo-Capture with no target
    (START, "skip +c3"),
    (MIDGAME, "c3-d4 +g7 #e5"),
    (MIDGAME, "d4-e4 -c4 #b3"),
    (MIDGAME, "e5-d4 +c4 *c5"),
    (MIDGAME, "b2-c2 -b3 *d4"),
    (MIDGAME, "e4 -a1 #c4"),
]


@pytest.mark.parametrize(
    "where,htn", SAMPLES, ids=[("mid " if isinstance(w, str) else "start ") + h for w, h in SAMPLES]
)
def test_highlight_is_the_union_of_the_failed_checks_cells(where, htn):
    pos = parse_hpn(where) if isinstance(where, str) else where
    turn = T(htn)
    verdict = check(pos, turn)
    root = parse(judged(pos, turn))
    assert lit(root) == failed_cells(pos, turn)
    head, lines = caption(root)
    assert head.startswith("Legal" if verdict.legal else "Illegal")
    assert not head.startswith("Legal") or verdict.legal
    assert turn_to_htn(turn, pos) in head


def test_highlight_and_turn_combine():
    root = parse(judged(Position.start(), T("d4 +c3"), highlight=[C("a1")]))
    assert lit(root) == {"a1", "d4"}


def test_caption_wraps_and_keeps_the_summary():
    pos, turn = mid(), T("c3-d4 +g7 #e5")
    summary = check(pos, turn).summary
    assert summary.startswith("Illegal: ")
    _, lines = caption(parse(judged(pos, turn)))
    assert len(lines) >= 2  # long enough to wrap
    assert all(len(line) <= 64 for line in lines)  # fits 400 px
    assert " ".join(lines) == summary.removeprefix("Illegal: ")


def test_a_very_long_summary_is_truncated():
    v = check(Position.start(), T("d4 +c3"))
    long = Verdict(v.legal, v.turn, v.mover, "word " * 200, v.checks, v.outcome, v.declared)
    _, lines = caption(parse(render_svg(Position.start(), verdict=long)))
    assert 1 <= len(lines) <= 5
    assert lines[-1].endswith("\u2026")
    assert all(len(line) <= 64 for line in lines)


def test_text_is_escaped():
    nasty = "<script>alert('x')</script> & \"quotes\" ]]> <!-- -->"
    v = check(Position.start(), T("d4 +c3"))
    svg = render_svg(
        Position.start(), verdict=Verdict(v.legal, v.turn, v.mover, nasty, v.checks, v.outcome, v.declared)
    )
    root = parse(svg)
    assert "<script" not in svg and "<!--" not in svg
    assert not any(e.tag.endswith("script") for e in root.iter())
    assert nasty in root.find(NS + "desc").text  # the text survives, escaped


def test_the_verdict_given_is_drawn_not_judged_again():
    # A verdict whose one failed check names b2 and g7, handed to the start position: the picture
    # shows that verdict (its cells, its words), whatever judging the turn again would say.
    v = check(Position.start(), T("c3 +d4"))
    assert v.legal
    made_up = Check("place.empty", "Step 1/2: Place", Status.FAILED, ("b2", "g7"), "Made up.")
    given = Verdict(False, v.turn, "A", "made up.", (made_up,), None, v.declared)
    root = parse(render_svg(Position.start(), verdict=given))
    head, lines = caption(root)
    assert head.startswith("Illegal") and lines == ["made up."]
    assert lit(root) == {"b2", "g7"}


def test_an_inconsistent_position_is_drawn_without_a_verdict():
    bad = Position.start().replace(half_moves=1)  # D-3 position.to-move: A to move on an odd count
    with pytest.raises(InconsistentPosition):  # so the callers refuse a turn on it (422, exit 2)
        check(bad, T("c3 +d4"))
    root = parse(render_svg(bad))
    assert by_id(root, "caption") is None and by_id(root, "marks") is None
    assert lit(root) == set()


# --------------------------------------------------- self-containment ------


@pytest.mark.parametrize(
    "where,htn",
    [(Position.start(), None), (MIDGAME, "c3-d4 +g7 #e5"), (MIDGAME, "b2-c2 -b3 *d4")],
    ids=["start", "mid illegal", "mid legal"],
)
def test_self_contained(where, htn):
    pos = parse_hpn(where) if isinstance(where, str) else where
    svg = judged(pos, T(htn), highlight=[C("a1")]) if htn else render_svg(pos, highlight=[C("a1")])
    root = parse(svg)
    assert re.findall(r"https?://[^\s\"'<>]*", svg) == ["http://www.w3.org/2000/svg"]
    for el in root.iter():
        tag = el.tag.removeprefix(NS)
        assert tag not in ("script", "image", "foreignObject", "use", "style", "a", "iframe")
        for attr, value in el.attrib.items():
            assert not attr.endswith("href") and attr != "src"
            assert not attr.startswith("on")  # no event handlers
            assert "url(" not in value
    assert "@import" not in svg and "@font-face" not in svg
    assert "sans-serif" in root.get("font-family")


def test_deterministic():
    pos, turn = mid(), T("c3-d4 +g7 #e5")
    one = judged(pos, turn, highlight=[C("a1"), C("g4")])
    two = judged(parse_hpn(MIDGAME), T("c3-d4 +g7 #e5"), highlight=[C("g4"), C("a1")])
    assert one == two
    assert render_svg(Position.start()) == render_svg(Position.start())


def test_renders_every_position_of_a_random_game():
    rng = random.Random(4)
    pos, history = Position.start(), []
    for _ in range(24):
        turns = legal_turns(pos)
        if not turns:
            break
        turn = rng.choice(turns)
        root = parse(judged(pos, turn, history))
        groups = cells(root)
        for c in board.CELLS:
            g = groups[board.name(c)]
            stone = pos.stones[c] or "empty"
            assert (g.get("data-tier"), g.get("data-stone"), g.get("data-locked")) == (
                str(pos.tiers[c]),
                stone,
                str(pos.locked[c]).lower(),
            )
        assert lit(root) == set()
        assert caption(root)[0].startswith("Legal")
        out = apply(pos, turn, history)
        history.append(pos)
        pos = out.position
        if out.game.over:
            break


# ------------------------------------------------------------- PNG ---------


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_renders_to_png():
    from checker.drawing.png import svg_to_png

    svg = judged(mid(), T("c3-d4 +g7 #e5"), highlight=[C("a1")])
    png = svg_to_png(svg, 400)
    width, height = _png_size(png)
    assert width == 400 and height > 300
    assert len(png) < 200_000


@pytest.mark.parametrize("name", ["board-start.png", "board-verdict.png", "board-legal.png"])
def test_example_pngs_in_docs(name):
    data = (ROOT / "docs" / name).read_bytes()
    assert _png_size(data)[0] == 400
    assert len(data) < 200_000


# -------------------------------------------- the labels stay clear of every mark --

SVG_NS = "{http://www.w3.org/2000/svg}"


def _label_boxes(root) -> list[tuple[str, float, float, float, float]]:
    """(text, left, top, right, bottom) of every cell's tier digit and name, from the
    text's anchor point, size and length (a glyph at most 0.62 em wide and 0.75 em above
    the baseline; a name may reach 0.22 em below it, "g" having a descender, a digit not)."""
    boxes = []
    for text in root.iter(SVG_NS + "text"):
        if text.get("class") not in ("tier", "name"):
            continue
        x, y, size = float(text.get("x")), float(text.get("y")), float(text.get("font-size"))
        width = 0.62 * size * len(text.text)
        left = x - width / 2 if text.get("text-anchor") == "middle" else x
        below = 0.22 * size if text.get("class") == "name" else 0.0
        boxes.append((text.text, left, y - 0.75 * size, left + width, y + below))
    return boxes


def _distances(cx: float, cy: float, box) -> tuple[float, float]:
    """The nearest and the farthest distance from (cx, cy) to a box."""
    _, left, top, right, bottom = box
    dx = max(left - cx, 0.0, cx - right)
    dy = max(top - cy, 0.0, cy - bottom)
    far = max(math.hypot(px - cx, py - cy) for px in (left, right) for py in (top, bottom))
    return math.hypot(dx, dy), far


def _clear_of_marks(svg: str) -> list[str]:
    """The labels a mark touches: a ring's stroke (an annulus) or a badge (a disc) meeting the box."""
    root = ET.fromstring(svg)
    labels = _label_boxes(root)
    touched = []
    marks = root.find(f".//{SVG_NS}g[@id='marks']")
    for circle in marks.iter(SVG_NS + "circle"):
        cx, cy, r = float(circle.get("cx")), float(circle.get("cy")), float(circle.get("r"))
        half = float(circle.get("stroke-width", "0")) / 2
        filled = circle.get("fill") not in (None, "none")
        for box in labels:
            near, far = _distances(cx, cy, box)
            inside_ring = far < r - half  # wholly inside the ring's hole
            if near <= r + half and (filled or not inside_ring):
                touched.append(f"{box[0]} under a mark at ({cx}, {cy})")
    return touched


@pytest.mark.parametrize("cell", board.CELLS, ids=board.name)
def test_no_mark_covers_a_label_of_its_cell_or_a_neighbour(cell):
    """A Place ring, a Shape badge and an Echo badge all on one cell (the most
    crowded a cell gets), on every cell: every tier digit and cell name stays
    clear, so a picture pasted into a dispute says which cell is marked."""
    start = Position.start()
    for kind in ("raise", "lower"):
        for echo in ("*", "#"):
            turn = T(f"{board.name(cell)} {'+' if kind == 'raise' else '-'}{board.name(cell)} {echo}{board.name(cell)}")
            svg = render_svg(start, verdict=check(start, turn))
            assert 'id="project-mark"' in svg and 'id="shape-mark"' in svg and 'id="echo-mark"' in svg
            assert _clear_of_marks(svg) == []


def test_the_clearance_check_does_find_a_covered_label():
    """The measure can fail: the old ring (r 13 with a 4.5-px halo) met the cell's name."""
    start = Position.start()
    svg = render_svg(start, verdict=check(start, T("c3 +c3")))
    assert _clear_of_marks(svg) == []
    from checker.drawing.svg import RING_HALO, RING_R

    old = svg.replace(
        f'r="{RING_R:g}" fill="none" stroke="#ffffff" stroke-width="{RING_HALO:g}"',
        'r="13" fill="none" stroke="#ffffff" stroke-width="4.5"',
    )
    assert old != svg and any(t.startswith("c3 under a mark") for t in _clear_of_marks(old))
