"""The rules reference: the committed docs/rules.md, its anchors, and its
worked examples checked against the checker.

Each example's expected reading below was worked out by hand from the rules
(HPN field order reserve:charges:lowers_left:captures:raises:flags:cooldown;
rows a … g of 4, 5, 6, 7, 6, 5, 4 cells; the weighing of RULES §7).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from checker import board, reference
from checker.catalogue import CAPTURES, DECISIONS, ENDINGS, ENTRIES, RULES, STEP_ECHO, STEP_MOVE, STEP_PLACE, STEP_SHAPE
from checker.legality import check
from checker.notation import START_HPN, key_hpn, parse_hpn, parse_htn, position_to_hpn, turn_to_htn
from checker.play import weigh_echo_capture, weigh_encirclement
from checker.position import Position
from checker.reference import (
    CAPTURE_FACTS,
    FIRST_TURN_HPN,
    HTN_EXAMPLES,
    JSON_POSITION,
    JSON_TURN,
    PLAYER_EXAMPLE,
    RICH_HPN,
    SECTIONS,
    Bullets,
    Code,
    Entries,
    Para,
    Table,
    entry_html,
    html_page,
    inline_html,
    main,
    markdown,
    plain_entry,
)
from checker.tools import vectors
from schemas.position import PositionField
from schemas.turn import TurnField

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "rules.md"


def test_committed_docs_are_what_the_reference_generates():
    assert RULES_MD.read_text(encoding="utf-8") == markdown(), (
        "docs/rules.md is out of date with checker/catalogue.py and checker/reference.py: "
        "run `make docs/rules.md` and commit the result"
    )


def test_main_prints_the_markdown_and_the_page(capsys):
    assert main([]) == 0
    assert capsys.readouterr().out == markdown()
    assert main(["--html"]) == 0
    assert capsys.readouterr().out == html_page()
    assert main(["--nonsense"]) == 2


# ------------------------------------------------------------- anchors ------


def test_markdown_has_an_anchor_for_every_entry_and_section():
    md = markdown()
    for entry_id in ENTRIES:
        assert md.count(f'<a id="{entry_id}"></a>') == 1, entry_id
    for s in SECTIONS:
        assert md.count(f'<a id="{s.id}"></a>') == 1, s.id
    assert '<a id="place.cooldown"></a>' in md and '<a id="D-10"></a>' in md


class _Page(HTMLParser):
    """Collects ids and links and checks that elements nest."""

    VOID = {"meta", "link", "br", "img", "hr", "input"}

    def __init__(self):
        super().__init__()
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


@pytest.fixture(scope="module")
def page() -> _Page:
    p = _Page()
    p.feed(html_page())
    p.close()
    return p


def test_page_is_well_formed_without_scripts(page):
    assert page.errors == [] and page.stack == []
    assert "script" not in page.tags and "style" not in page.tags


def test_page_has_an_anchor_for_every_rule_id_and_decided_reading(page):
    assert len(page.ids) == len(set(page.ids)), "an id is used twice"
    for entry_id in ENTRIES:
        assert entry_id in page.ids, entry_id
    assert 'id="place.cooldown"' in html_page() and 'id="D-10"' in html_page()


def test_every_link_of_the_page_inside_it_resolves(page):
    internal = [h[1:] for h in page.hrefs if h.startswith("#")]
    assert internal, "the page links its own entries"
    assert set(internal) <= set(page.ids)
    others = {h for h in page.hrefs if not h.startswith("#")}
    assert all(h.startswith(("https://hexodic.com/", "/")) for h in others), others


def test_page_shows_the_start_position_in_hpn():
    text = html_page()
    notation = text[text.index('<section id="notation">') : text.index('<section id="json">')]
    assert f"<pre><code>{START_HPN}</code></pre>" in notation


def test_inline_html_escapes_and_links():
    assert inline_html("a <b> & `place.cooldown`, D-4 and D-99") == (
        'a &lt;b&gt; &amp; <a href="#place.cooldown"><code>place.cooldown</code></a>, <a href="#D-4">D-4</a> and D-99'
    )
    # from another page, links go to the reference
    assert '<a href="/rules#D-4">D-4</a>' in entry_html("project.skip")
    assert '<a href="/rules#move.reserve-empty"><code>move.reserve-empty</code></a>' in entry_html("project.skip")
    assert inline_html("example.com is not an id") == "example.com is not an id"


# Text content escapes <, > and & but leaves quotes as they are: only an attribute's value
# (an href, the aria-label of a table) needs its quotes escaped.


def test_inline_html_escapes_text_and_keeps_its_quotes():
    assert inline_html('The "skip" <is> `skip`; it\'s "A & B".') == (
        'The "skip" &lt;is&gt; <code>skip</code>; it\'s "A &amp; B".'
    )
    assert inline_html("a < b > c & d") == "a &lt; b &gt; c &amp; d"


def test_inline_html_code_is_marked_and_linked_only_when_it_is_an_entry():
    assert inline_html('`{"kind": "place"} <x> & y`') == '<code>{"kind": "place"} &lt;x&gt; &amp; y</code>'
    assert inline_html("`skip`, `D-99` and `a1`") == "<code>skip</code>, <code>D-99</code> and <code>a1</code>"
    assert inline_html("`place.cooldown` and `D-4`", "/rules") == (
        '<a href="/rules#place.cooldown"><code>place.cooldown</code></a> and <a href="/rules#D-4"><code>D-4</code></a>'
    )


def test_inline_html_bold_and_emphasis_hold_inline_text():
    assert inline_html("rules version **2025-01-01** & *mover*") == (
        "rules version <strong>2025-01-01</strong> &amp; <em>mover</em>"
    )
    assert inline_html("**a <b> & `place.cooldown` or D-4**", "/rules") == (
        '<strong>a &lt;b&gt; &amp; <a href="/rules#place.cooldown"><code>place.cooldown</code></a> or '
        '<a href="/rules#D-4">D-4</a></strong>'
    )
    assert inline_html("*the reading D-4 & `skip`*", "/rules") == (
        '<em>the reading <a href="/rules#D-4">D-4</a> &amp; <code>skip</code></em>'
    )
    # a lone star is text, not emphasis
    assert inline_html("6 * 2 = 12") == "6 * 2 = 12"


def test_inline_html_links_keep_their_label_and_escape_their_address():
    assert inline_html(
        'see [Decided readings](#decisions) and [the "Project" page](https://hexodic.com/rules/project).'
    ) == (
        'see <a href="#decisions">Decided readings</a> and '
        '<a href="https://hexodic.com/rules/project">the "Project" page</a>.'
    )
    assert inline_html("[**all** <rules>](/v1/rules?a=1&b=2)") == (
        '<a href="/v1/rules?a=1&amp;b=2"><strong>all</strong> &lt;rules&gt;</a>'
    )


def test_inline_html_from_another_page_links_every_named_entry_into_the_reference():
    # "catalogue ids and D-n linked to base#id" in every form of text, a link's label included
    text = (
        "place.cooldown, `game.over`, D-4, **D-10**, *end.takeover* and "
        "[the rule echo-lock.once](https://hexodic.com/rules/lock); D-99 and a.b are no entries"
    )
    p = _Page()
    p.feed(inline_html(text, "/rules"))
    p.close()
    assert p.hrefs == [
        "/rules#place.cooldown",
        "/rules#game.over",
        "/rules#D-4",
        "/rules#D-10",
        "/rules#end.takeover",
        "https://hexodic.com/rules/lock",
        "/rules#echo-lock.once",
    ]
    # on the reference itself (base ""), the same links are to the page's own anchors
    p = _Page()
    p.feed(inline_html(text))
    p.close()
    assert p.hrefs == [
        "#place.cooldown",
        "#game.over",
        "#D-4",
        "#D-10",
        "#end.takeover",
        "https://hexodic.com/rules/lock",
        "#echo-lock.once",
    ]


# ------------------------------------------------------ the page's blocks ------


def test_html_block_paragraph_and_lists():
    block = reference._html_block
    assert block(Para('The "centre" is **d4** & `c3` < `e5`.'), 2) == [
        '<p>The "centre" is <strong>d4</strong> &amp; <code>c3</code> &lt; <code>e5</code>.</p>'
    ]
    assert block(Bullets(("*mover*: the player", "see D-4")), 2) == [
        "<ul>",
        "<li><em>mover</em>: the player</li>",
        '<li>see <a href="#D-4">D-4</a></li>',
        "</ul>",
    ]
    assert block(Bullets(("first", "second & last"), ordered=True), 2) == [
        "<ol>",
        "<li>first</li>",
        "<li>second &amp; last</li>",
        "</ol>",
    ]


def test_html_block_code_is_preformatted_and_escaped_as_text():
    assert reference._html_block(Code('{"to_move": "B",\n "x": \'<a> & b\'}', "json"), 2) == [
        '<pre><code>{"to_move": "B",\n "x": \'&lt;a&gt; &amp; b\'}</code></pre>'
    ]


def test_html_block_table_is_a_named_region_with_a_header_row():
    table = Table(("`id`", 'the "source" & kind'), (("place.cooldown", "rule"), ("D-4", "a < b")))
    assert reference._html_block(table, 2) == [
        # the label is the header's words, an attribute: quotes and & escaped, markup dropped
        '<div class="table" tabindex="0" role="region" aria-label="Table: id, the &quot;source&quot; &amp; kind">'
        "<table>",
        '<thead><tr><th scope="col"><code>id</code></th><th scope="col">the "source" &amp; kind</th></tr></thead>',
        "<tbody>",
        '<tr><td><a href="#place.cooldown"><code>place.cooldown</code></a></td><td>rule</td></tr>',
        '<tr><td><a href="#D-4">D-4</a></td><td>a &lt; b</td></tr>',
        "</tbody></table></div>",
    ]


def test_html_block_entries_each_with_its_anchor_heading_and_source():
    # as docs/rules.md shows them: id (in code unless a D-n) and title; where it belongs and its
    # source (RULES.md: the position checks are decided D-3, end.takeover a published rule); the text
    assert reference._html_block(Entries(("position.tier", "D-2", "end.takeover")), 2) == [
        '<article class="entry rule" id="position.tier">',
        '<h3><a class="anchor" href="#position.tier"><code>position.tier</code></a> Tiers 0–2</h3>',
        '<p class="meta">Position · decided reading <a href="#D-3">D-3</a> · '
        '<a href="https://hexodic.com/glossary">published page</a></p>',
        "<p>Every cell's tier is 0, 1 or 2.</p>",
        "</article>",
        '<article class="entry decision" id="D-2">',
        '<h3><a class="anchor" href="#D-2">D-2</a> The players</h3>',
        '<p class="meta">decided reading · <a href="https://hexodic.com/glossary">published page</a></p>',
        "<p>The players are called A and B, and A moves first.</p>",
        "</article>",
        '<article class="entry end" id="end.takeover">',
        '<h3><a class="anchor" href="#end.takeover"><code>end.takeover</code></a> Takeover</h3>',
        '<p class="meta">End of the game · published rule · '
        '<a href="https://hexodic.com/rules/takeover">published page</a></p>',
        '<p>Checked first (<a href="#D-11">D-11</a>): the mover has now captured 6 or more enemy stones in the '
        "game, by any kind of capture. The mover wins.</p>",
        "</article>",
    ]


@pytest.mark.parametrize("depth,heading", [(1, "h2"), (2, "h3"), (3, "h4"), (4, "h5"), (5, "h6"), (6, "h6")])
def test_html_block_entry_headings_are_one_below_their_section_and_at_most_h6(depth, heading):
    lines = reference._html_block(Entries(("D-2",)), depth)
    assert lines[1] == f'<{heading}><a class="anchor" href="#D-2">D-2</a> The players</{heading}>'


def test_plain_entry_for_a_terminal():
    lines = plain_entry(RULES["place.cooldown"]).splitlines()
    assert lines == [
        "place.cooldown: Capture cooldown",
        "Step 1/2: Place · published rule",
        RULES["place.cooldown"].text,
        "More: https://hexodic.com/rules/project",
        "Reference: /rules#place.cooldown",
    ]
    assert plain_entry(RULES["project.skip"]).splitlines()[1] == "Step 1/2: Place · decided reading D-4"
    assert plain_entry(DECISIONS["D-10"]).splitlines()[:2] == [
        "D-10: The Echo-Capture check weighs the group",
        "decided reading",
    ]


# ---------------------------------------------------- worked examples ------


def test_first_turn_example_is_what_c3_d4_makes():
    verdict = check(parse_hpn(START_HPN), parse_htn("c3 +d4"), [])
    assert verdict.legal
    assert position_to_hpn(verdict.outcome.position) == FIRST_TURN_HPN


def test_player_field_reads_as_the_reference_says():
    # "reserve 6, charges 3, lowers left 6, captures 0, raises 1, flags P, cooldown -"
    a = parse_hpn(FIRST_TURN_HPN).player("A")
    assert f"player A | `{PLAYER_EXAMPLE}` | reserve 6, charges 3, lowers left 6, captures 0, raises 1" in markdown()
    assert (a.reserve, a.charges, a.lowers_left, a.captures, a.raises, a.placed, a.echo_lock_used, a.cooldown) == (
        6,
        3,
        6,
        0,
        1,
        True,
        False,
        frozenset(),
    )


def test_first_turn_board_reads_as_the_reference_says():
    pos = parse_hpn(FIRST_TURN_HPN)
    occupied = {
        board.name(c): (pos.tiers[c], pos.stones[c])
        for c in board.CELLS
        if pos.tiers[c] or pos.stones[c] or pos.locked[c]
    }
    assert occupied == {"c3": (0, "A"), "d4": (1, None)}
    assert pos.to_move == "B" and pos.half_moves == 1


def test_rich_example_reads_as_the_reference_says():
    pos = parse_hpn(RICH_HPN)
    assert pos.problems() == []
    assert position_to_hpn(pos) == RICH_HPN
    c = board.parse_cell
    assert (pos.tiers[c("b3")], pos.stones[c("b3")]) == (2, None)
    assert (pos.tiers[c("b4")], pos.stones[c("b4")]) == (0, "A")
    assert (pos.tiers[c("d4")], pos.stones[c("d4")], pos.locked[c("d4")]) == (2, "A", True)
    assert (pos.tiers[c("f4")], pos.stones[c("f4")], pos.locked[c("f4")]) == (2, None, True)
    a, b = pos.player("A"), pos.player("B")
    assert (a.reserve, a.charges, a.lowers_left, a.captures, a.raises, a.placed, a.echo_lock_used) == (
        1,
        2,
        5,
        0,
        19,
        True,
        True,
    )
    assert a.cooldown == frozenset({c("c3")})
    assert (b.reserve, b.lowers_left, b.captures) == (0, 1, 1)
    assert (pos.half_moves, pos.to_move) == (40, "A")
    # it is the position of the vector the reference names
    assert any(v["id"] == "gen-10-40-legal" and v["position"] == RICH_HPN for v in vectors.read_vectors())


def test_repetition_key_example():
    key = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:- 7:3:6:0:0:-"
    assert key_hpn(Position.start()) == key
    assert f"`{key}`" in markdown()


@pytest.mark.parametrize("htn,meaning", HTN_EXAMPLES)
def test_htn_examples_parse_and_are_canonical(htn, meaning):
    turn = parse_htn(htn)
    assert turn_to_htn(turn) == htn.replace("x", "-")  # without a position, a Move is written with '-'
    assert turn_to_htn(parse_htn(htn.upper().replace(" ", "   "))) == turn_to_htn(turn)
    kind = {"Place": "place", "Move": "move", "The cooldown skip": "skip"}
    assert turn.project.kind == next(k for word, k in kind.items() if meaning.startswith(word))


def test_json_examples_are_the_positions_and_turns_they_say():
    pos = PositionField().deserialize(json.loads(JSON_POSITION))
    assert pos == parse_hpn(FIRST_TURN_HPN)
    assert TurnField().deserialize(json.loads(JSON_TURN)) == parse_htn("c3 +d4 *e5")


def _fact_position(fact) -> Position:
    return parse_hpn(f"{fact.board} {fact.mover} 0:3:6:0:0:P:- 0:3:6:0:0:P:- 0")


@pytest.mark.parametrize("fact", CAPTURE_FACTS, ids=lambda f: f.text[:40])
def test_capture_facts_are_what_the_checker_weighs(fact):
    pos = _fact_position(fact)
    cell = board.parse_cell(fact.cell)
    if fact.check == "encirclement":
        weighings = weigh_encirclement(pos.bits, fact.mover)
    else:
        weighings = weigh_echo_capture(pos.bits, fact.mover, board.parse_cell(fact.target))
    mine = [w for w in weighings if w.cell == fact.cell]
    if fact.total is None:
        assert mine == [], "the stone is not weighed"
        return
    (w,) = mine
    assert (w.sum, w.threshold, w.captured, w.tier) == (fact.total, fact.threshold, fact.captured, pos.tiers[cell])
    # the sum the text writes out is the sum of the weighing's terms
    assert sum(t.value for t in w.terms) == fact.total
    assert f"= {fact.total}" in fact.text or f"{fact.total} > " in fact.text or f"= {fact.total} at most" in fact.text


def test_echo_fact_is_not_weighed_by_the_normal_check():
    (fact,) = [f for f in CAPTURE_FACTS if f.check == "echo"]
    pos = _fact_position(fact)
    assert weigh_encirclement(pos.bits, fact.mover) == []
    # d5 has an empty neighbour (d6): only d4 is weighed by the Echo-Capture check
    assert [w.cell for w in weigh_echo_capture(pos.bits, "A", board.parse_cell("d4"))] == ["d4"]


def test_vector_format_is_the_files():
    md = markdown()
    section = md[md.index('<a id="vectors"></a>') : md.index('<a id="presentation"></a>')]
    documented = re.findall(r"^\| `([a-z_]+)` \|", section, re.M)
    assert tuple(documented) == vectors.KEYS
    for key in vectors.header(0):
        assert f'"{key}"' in section
    first = json.loads(next(iter(vectors._read_lines(vectors.SHIPPED))))
    assert set(first) == set(vectors.header(0))


def test_step_labels_table_is_the_catalogues():
    md = markdown()
    for label in (STEP_PLACE, STEP_MOVE, STEP_SHAPE, STEP_ECHO):
        assert f"| {label} |" in md


def test_board_section_names_every_cell():
    md = markdown()
    section = md[md.index('<a id="board"></a>') : md.index('<a id="position"></a>')]
    diagram = section.split("```")[1]
    assert diagram.split() == list(board.NAMES)
    # "the neighbours of d4 are d3, d5, c3, c4, e4 and e5"
    assert sorted(board.name(n) for n in board.NEIGHBOURS[board.D4]) == ["c3", "c4", "d3", "d5", "e4", "e5"]
    assert board.steps(board.A1, board.G7) == 6


# RULES §9: the published page of each family of rule ids, and of the captures and the ends
PUBLISHED = {
    "game.": "https://hexodic.com/rules/game-end",
    "project.": "https://hexodic.com/rules/project",
    "place.": "https://hexodic.com/rules/project",
    "move.": "https://hexodic.com/rules/project",
    "shape.": "https://hexodic.com/rules/shape",
    "echo.": "https://hexodic.com/rules/echo",
    "echo-capture.": "https://hexodic.com/rules/echo-capture",
    "echo-lock.": "https://hexodic.com/rules/lock",
    "position.": "https://hexodic.com/glossary",
    "capture.": "https://hexodic.com/rules/capture",
    "end.takeover": "https://hexodic.com/rules/takeover",
    "end.network": "https://hexodic.com/rules/network",
    "end.strangle": "https://hexodic.com/rules/strangle",
    "end.repetition": "https://hexodic.com/rules/game-end",
    "end.threefold": "https://hexodic.com/rules/game-end",
    "end.tiebreak": "https://hexodic.com/rules/game-end",
}
# the entries RULES.md marks [decided D-n] (the position.* checks: D-3, an inconsistent position)
DECIDED = {"project.skip": "D-4", "shape.skipped": "D-7", "echo-lock.unlocked": "D-9", "capture.echo": "D-10"}


def _published(entry_id: str) -> str:
    (url,) = {url for prefix, url in PUBLISHED.items() if entry_id.startswith(prefix)}
    return f"[{url.removeprefix('https://')}]({url})"


def _source(entry_id: str) -> str:
    decided = "D-3" if entry_id.startswith("position.") else DECIDED.get(entry_id)
    return f"decided, {decided}" if decided else "rule"


def test_the_rule_ids_table_lists_every_check_with_its_source_and_published_page():
    table = reference._ids_table()
    assert table.header == ("id", "step", "title", "source", "published page")
    assert [row[0] for row in table.rows] == list(RULES)  # in turn order
    for rid, step, title, source, page in table.rows:
        assert (step, title) == (RULES[rid].step, RULES[rid].title), rid
        assert (source, page) == (_source(rid), _published(rid)), rid
    assert table.rows[1] == (
        "project.skip", STEP_PLACE, "Cooldown skip", "decided, D-4",
        "[hexodic.com/rules/project](https://hexodic.com/rules/project)",
    )  # fmt: skip


def test_the_other_ids_table_lists_the_captures_then_the_ends():
    table = reference._other_ids_table()
    assert table.header == ("id", "kind", "title", "source", "published page")
    assert [row[:2] for row in table.rows] == [
        ("capture.move", "capture"), ("capture.encirclement", "capture"), ("capture.echo", "capture"),
        ("end.takeover", "end"), ("end.network", "end"), ("end.strangle", "end"),
        ("end.repetition", "end"), ("end.threefold", "end"), ("end.tiebreak", "end"),
    ]  # fmt: skip
    entries = {**CAPTURES, **ENDINGS}
    for eid, _, title, source, page in table.rows:
        assert (title, source, page) == (entries[eid].title, _source(eid), _published(eid)), eid
    assert table.rows[2][2:4] == ("The Echo-Capture check", "decided, D-10")
