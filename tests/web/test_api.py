"""The HTTP API (docs/api.md) through Flask's test client: every endpoint, every
successful answer checked against docs/api.md / RULES.md and against its schema in
the committed openapi.yaml.

Expected values are worked out by hand from RULES.md; the derivations are in
the comments beside them.
"""

from __future__ import annotations

import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from tests.helpers import POSITION_RULES, START_HPN, TURN_RULES
from tests.web.schema_validation import assert_component, assert_documented, document

RULES_VERSION = "2026-09-15"

# --- the board of RULES §1, written out independently of the checker -------------------------------

ROWS = "abcdefg"
#: every cell in board order a1 … g7 (D-1: valid when |row − column| ≤ 3)
CELLS = [f"{r}{c}" for i, r in enumerate(ROWS, 1) for c in range(1, 8) if abs(i - c) <= 3]


def steps(a: str, b: str) -> int:
    """RULES §1: max(|di|, |dj|, |di − dj|)."""
    di = ROWS.index(a[0]) - ROWS.index(b[0])
    dj = int(a[1]) - int(b[1])
    return max(abs(di), abs(dj), abs(di - dj))


def within(cell: str, n: int = 2) -> list[str]:
    return [c for c in CELLS if steps(cell, c) <= n]


def test_board_model_matches_rules():
    assert len(CELLS) == 37
    assert CELLS[:4] == ["a1", "a2", "a3", "a4"] and CELLS[-4:] == ["g4", "g5", "g6", "g7"]
    assert max(steps("d4", c) for c in CELLS) == 3


# --- positions used below (HPN written by hand, RULES §10) ------------------------------------------

PLAYER0 = {
    "reserve": 7,
    "charges": 3,
    "lowers_left": 6,
    "captures": 0,
    "raises": 0,
    "placed": False,
    "echo_lock_used": False,
    "cooldown": [],
}
START_JSON = {"to_move": "A", "half_moves": 0, "cells": {}, "players": {"A": dict(PLAYER0), "B": dict(PLAYER0)}}

# A to move at half-move 10.  B's stone on d4 (tier 1); A's stones on five of its six neighbours (tier 1):
# c3, c4, d3, d5, e4; the sixth neighbour e5 is tier 1 and empty.  Tier sum 7 = raises 4 (A) + 3 (B).
# A: 5 stones + 2 reserve; B: 1 + 6.
CAPTURE_HPN = "0000/00000/001A1A00/001A1B1A00/001A100/00000/0000 A 2:3:6:0:4:P:- 6:3:6:0:3:P:- 10"
CAPTURE_JSON = {
    "to_move": "A",
    "half_moves": 10,
    "cells": {
        "c3": {"tier": 1, "stone": "A"},
        "c4": {"tier": 1, "stone": "A"},
        "d3": {"tier": 1, "stone": "A", "locked": False},
        "d4": {"tier": 1, "stone": "B"},
        "d5": {"tier": 1, "stone": "A"},
        "e4": {"tier": 1, "stone": "A"},
        "e5": {"tier": 1, "stone": None},
        "g7": {},
    },  # input may list any cells, defaults included
    "players": {
        "A": {**PLAYER0, "reserve": 2, "raises": 4, "placed": True},
        "B": {**PLAYER0, "reserve": 6, "raises": 3, "placed": True},
    },
}
# A to move at half-move 2: A's stone on c3 (tier 2), B's stone on e5 (tier 0); raises 1 each.
LOCK_HPN = "0000/00000/002A000/0000000/0000B00/00000/0000 A 6:3:6:0:1:P:- 6:3:6:0:1:P:- 2"


def post(client, path, body):
    resp = client.post(path, json=body)
    return resp, assert_documented(resp, "POST", path)


def get(client, path):
    resp = client.get(path)
    return resp, assert_documented(resp, "GET", path)


def assert_position_output(pos: dict):
    """RULES §11 output rules: only cells that differ from the default, tier always, stone only when
    present, locked only when true."""
    for name, cell in pos["cells"].items():
        assert name in CELLS
        assert set(cell) <= {"tier", "stone", "locked"} and "tier" in cell, (name, cell)
        assert cell["tier"] in (0, 1, 2)
        if "stone" in cell:
            assert cell["stone"] in ("A", "B"), (name, cell)
        if "locked" in cell:
            assert cell["locked"] is True, (name, cell)
        assert cell["tier"] != 0 or "stone" in cell or "locked" in cell, f"{name} is a default cell: {cell}"
    for who in ("A", "B"):
        assert set(pos["players"][who]) == set(PLAYER0)


# --- GET endpoints -----------------------------------------------------------------------------------


def test_healthz(client):
    resp, body = get(client, "/healthz")
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    # the application version is the package's, as pyproject.toml declares it
    version = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]["version"]
    assert body == {"status": "ok", "rules_version": RULES_VERSION, "version": version}


def test_start_position_is_the_start_hpn_of_rules_10(client):
    resp, body = get(client, "/v1/start")
    assert resp.status_code == 200
    assert body["hpn"] == "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
    assert body["hpn"] == START_HPN
    assert body["position"] == START_JSON
    assert_position_output(body["position"])


# RULES §9: every rule id (written out from RULES.md in tests/helpers.py).
RULE_IDS = set(TURN_RULES) | set(POSITION_RULES)
POSITION_IDS = {r for r in RULE_IDS if r.startswith("position.")}


def more_link(rule: str) -> str:
    """The ``more`` link of a rule id (RULES §9 table)."""
    family = rule.split(".")[0]
    page = {
        "game": "rules/game-end",
        "project": "rules/project",
        "place": "rules/project",
        "move": "rules/project",
        "shape": "rules/shape",
        "echo": "rules/echo",
        "echo-capture": "rules/echo-capture",
        "echo-lock": "rules/lock",
        "position": "glossary",
    }[family]
    return "https://hexodic.com/" + page


def step_label(rule: str) -> str | None:
    """The step label of RULES §3 for the rules of Steps 1–3 (None where RULES names no label)."""
    family = rule.split(".")[0]
    return {
        "place": "Step 1/2: Place",
        "project": "Step 1/2: Place",
        "move": "Step 1/2: Move",
        "shape": "Step 2/2: Shape",
        "echo": "Step 3: Echo (optional)",
        "echo-capture": "Step 3: Echo (optional)",
        "echo-lock": "Step 3: Echo (optional)",
    }.get(family)


CAPTURE_IDS = ["capture.move", "capture.encirclement", "capture.echo"]
END_IDS = ["end.takeover", "end.network", "end.strangle", "end.repetition", "end.threefold", "end.tiebreak"]
DECISION_IDS = [f"D-{n}" for n in range(1, 16)]


def test_rule_catalogue_lists_every_entry_of_the_reference(client):
    """A bare list, as before (old clients keep working): every rule id of RULES §9 (kind rule), then the
    capture kinds, the end-of-game reasons and the decided readings D-1 … D-15, each with its full text."""
    resp, body = get(client, "/v1/rules")
    assert resp.status_code == 200 and isinstance(body, list)
    ids = [r["id"] for r in body]
    assert len(ids) == len(set(ids)), "an id is listed twice"
    kinds = {r["id"]: r["kind"] for r in body}
    assert {i for i, k in kinds.items() if k == "rule"} == RULE_IDS
    assert [i for i in ids if kinds[i] == "capture"] == CAPTURE_IDS
    assert [i for i in ids if kinds[i] == "end"] == END_IDS
    assert [i for i in ids if kinds[i] == "decision"] == DECISION_IDS
    assert len(ids) == len(RULE_IDS) + 3 + 6 + 15
    for r in body:
        assert set(r) == {"id", "kind", "step", "title", "text", "more", "rule_url", "source", "decision"}, r
        assert r["rule_url"] == f"/rules#{r['id']}"
        for key in ("step", "title", "text", "more", "source"):
            assert isinstance(r[key], str) and r[key].strip(), (r["id"], key)
    by_id = {r["id"]: r for r in body}
    # the full texts: D-10's weighing, the tiebreak's four levels in order, place.cooldown's 2 steps
    assert "(t + 1) × (edge slots + opponent-stone slots) > 6 × t" in by_id["D-10"]["text"]
    levels = ["unlocked tier-2 cells", "sum of the tiers", "more captures", "more raises"]
    positions = [by_id["end.tiebreak"]["text"].index(word) for word in levels]
    assert positions == sorted(positions)
    assert "at least 2 steps from every cell" in by_id["place.cooldown"]["text"]
    assert (by_id["D-8"]["source"], by_id["D-8"]["decision"]) == ("decided", "D-8")
    rules_only = [r for r in body if r["kind"] == "rule"]
    for r in rules_only:
        for key in ("step", "title", "text", "more", "source"):
            assert isinstance(r[key], str) and r[key].strip(), (r["id"], key)
        assert r["more"] == more_link(r["id"]), r["id"]
        if step_label(r["id"]):
            assert r["step"] == step_label(r["id"]), r["id"]
        assert r["source"] in ("rule", "decided")
        if r["source"] == "decided":
            assert re.fullmatch(r"D-\d+", r["decision"] or ""), r
        else:
            assert r["decision"] is None, r
    # the readings RULES tags [decided]
    assert (by_id["project.skip"]["source"], by_id["project.skip"]["decision"]) == ("decided", "D-4")
    assert (by_id["shape.skipped"]["source"], by_id["shape.skipped"]["decision"]) == ("decided", "D-7")
    assert (by_id["echo-lock.unlocked"]["source"], by_id["echo-lock.unlocked"]["decision"]) == ("decided", "D-9")
    for rid in POSITION_IDS:
        assert (by_id[rid]["source"], by_id[rid]["decision"]) == ("decided", "D-3"), rid
    # and some it tags [rule]
    for rid in (
        "place.opening-restriction",
        "move.destination",
        "shape.mandate",
        "echo.charge",
        "echo-capture.sealed",
        "echo-lock.once",
    ):
        assert by_id[rid]["source"] == "rule", rid


def test_openapi_yaml_is_an_openapi_3_document(client):
    resp = client.get("/openapi.yaml")
    assert resp.status_code == 200
    assert "yaml" in resp.mimetype
    doc = yaml.safe_load(resp.get_data(as_text=True))
    assert isinstance(doc, dict)
    assert re.fullmatch(r"3\.\d+\.\d+", str(doc["openapi"]))
    assert doc["info"]["version"] == RULES_VERSION
    # the served document is the committed one (which the schema checks in these tests use)
    assert doc == document()
    for path, method in [
        ("/v1/check", "post"),
        ("/v1/legal-turns", "post"),
        ("/v1/validate", "post"),
        ("/v1/rules", "get"),
        ("/v1/start", "get"),
        ("/healthz", "get"),
        ("/openapi.yaml", "get"),
        ("/docs", "get"),
    ]:
        assert method in doc["paths"][path], (method, path)


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value is not None:
                self.refs.append((tag, name, value))


def test_docs_page_uses_only_local_assets(client):
    resp = client.get("/docs")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    parser = _Refs()
    parser.feed(html)
    assert parser.refs, "the page references no assets"
    kinds = set()
    scripts = ""
    links = [url for tag, _attr, url in parser.refs if tag == "a"]
    # the page links the rules reference, the playground and the document (served by this app)
    assert links == ["/rules", "/", "/openapi.yaml"]
    for url in links:
        assert client.get(url).status_code == 200, url
    for tag, _attr, url in parser.refs:
        assert not re.match(r"(?i)(https?:)?//", url), f"remote asset {url}"
        if tag == "a":
            continue
        path = url.split("?")[0]  # the assets' links carry their version (?v=)
        assert path.startswith("/docs/assets/") or path == "/favicon.svg", f"{tag} refers to {url}, not a local asset"
        kinds.add(path.rsplit(".", 1)[-1])
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert asset.data, url
        if path.endswith(".css"):
            assert asset.mimetype == "text/css"
            # the stylesheet's own url(...) references are inline data, never fetched from elsewhere
            for ref in re.findall(r"url\(\s*['\"]?([^'\")]*)", asset.get_data(as_text=True)):
                assert ref.startswith("data:") or not re.match(r"(?i)(https?:)?//", ref), ref
        if path.endswith(".js"):
            assert "javascript" in asset.mimetype
            scripts += asset.get_data(as_text=True)
    assert {"css", "js"} <= kinds
    assert not re.search(r"(?i)https?://", html), "the page names a remote URL"
    assert '"/openapi.yaml"' in scripts, "the page does not load the service's own document"


# --- POST /v1/check ---------------------------------------------------------------------------------


def test_api_md_example_d4_c3_from_the_start(client):
    resp, v = post(client, "/v1/check", {"position": START_HPN, "turn": "d4 +c3"})
    assert resp.status_code == 200
    assert v["rules_version"] == RULES_VERSION
    assert v["legal"] is False
    assert v["turn"] == "d4 +c3"
    assert v["mover"] == "A"
    assert v["summary"] == "Illegal: A's first Place must be at least 1 step from the centre, and d4 is the centre."
    assert v["violations"] == ["place.opening-restriction"]
    assert {
        "rule": "place.opening-restriction",
        "step": "Step 1/2: Place",
        "status": "failed",
        "cells": ["d4"],
        "message": "A's first Place must be at least 1 step from the centre; d4 is the centre.",
        "more": "https://hexodic.com/rules/project",
        "rule_url": "/rules#place.opening-restriction",
    } in v["checks"]
    assert v["outcome"] is None
    # every other check passes or does not apply; the Shape is still judged (c3 is 1 step from d4)
    others = [c for c in v["checks"] if c["rule"] != "place.opening-restriction"]
    assert all(c["status"] in ("passed", "not_applicable") for c in others), others
    by_rule = {c["rule"]: c for c in v["checks"]}
    assert by_rule["shape.range"]["status"] == "passed" and "c3" in by_rule["shape.range"]["cells"]


ORDER = ["game.over", "Step 1/2", "Step 2/2", "Step 3"]


def assert_verdict_shape(v: dict):
    """docs/api.md: checks in turn order (game.over, Step 1, Step 2, Echo), each with rule/step/status/cells/
    message/more; violations are exactly the failed rules; outcome present exactly when legal."""
    assert v["checks"][0]["rule"] == "game.over"
    ranks = []
    for c in v["checks"]:
        assert set(c) == {"rule", "step", "status", "cells", "message", "more", "rule_url"}, c
        assert c["rule_url"] == f"/rules#{c['rule']}", c
        assert c["rule"] in RULE_IDS - POSITION_IDS, c["rule"]
        assert c["status"] in ("passed", "failed", "not_applicable")
        assert all(cell in CELLS for cell in c["cells"]), c
        assert c["message"].strip()
        assert c["more"] == more_link(c["rule"]), c
        if c["rule"] == "game.over":
            ranks.append(0)
        else:
            ranks.append(next(i for i, p in enumerate(ORDER) if c["step"].startswith(p)))
    assert ranks == sorted(ranks), [c["rule"] for c in v["checks"]]
    failed = [c["rule"] for c in v["checks"] if c["status"] == "failed"]
    assert sorted(set(v["violations"])) == sorted(set(failed))
    assert v["legal"] is (not failed)
    assert (v["outcome"] is not None) is v["legal"]
    assert v["summary"].startswith("Legal" if v["legal"] else "Illegal")


def test_illegal_turn_reports_every_violation(client):
    # d4 breaks the opening restriction; g7 is 3 steps from the landing cell d4 (RULES §5: at most 2)
    resp, v = post(client, "/v1/check", {"position": START_HPN, "turn": "d4 +g7"})
    assert resp.status_code == 200
    assert_verdict_shape(v)
    assert v["legal"] is False and v["outcome"] is None
    assert set(v["violations"]) == {"place.opening-restriction", "shape.range"}
    rng = next(c for c in v["checks"] if c["rule"] == "shape.range")
    assert rng["status"] == "failed" and "g7" in rng["cells"] and "3" in rng["message"]


# After "c3 +d4" from the start (RULES §4, §5): A's stone on c3 (tier 0), d4 raised to 1; A: reserve 6,
# raises 1, placed; B to move at half-move 1.
C3_D4_POSITION = {
    "to_move": "B",
    "half_moves": 1,
    "cells": {"c3": {"tier": 0, "stone": "A"}, "d4": {"tier": 1}},
    "players": {"A": {**PLAYER0, "reserve": 6, "raises": 1, "placed": True}, "B": dict(PLAYER0)},
}
C3_D4_HPN = "0000/00000/000A000/0001000/000000/00000/0000 B 6:3:6:0:1:P:- 7:3:6:0:0:-:- 1"
C3_D4_TURN = {"project": {"kind": "place", "cell": "c3"}, "shape": {"kind": "raise", "cell": "d4"}}


@pytest.mark.parametrize("position", [START_HPN, START_JSON], ids=["hpn", "json-position"])
@pytest.mark.parametrize(
    "turn",
    ["c3 +d4", "  C3   +D4 ", C3_D4_TURN, {**C3_D4_TURN, "echo": None}],
    ids=["htn", "htn-loose", "json-turn", "json-turn-null-echo"],
)
def test_legal_turn_outcome(client, position, turn):
    resp, v = post(client, "/v1/check", {"position": position, "turn": turn, "history": []})
    assert resp.status_code == 200
    assert_verdict_shape(v)
    assert v["legal"] is True and v["violations"] == []
    assert v["turn"] == "c3 +d4" and v["mover"] == "A"
    out = v["outcome"]
    assert set(out) == {"position", "hpn", "events", "capture_check", "game"}
    assert out["position"] == C3_D4_POSITION
    assert_position_output(out["position"])
    assert out["hpn"] == C3_D4_HPN
    assert [e["type"] for e in out["events"]] == ["first_place"]
    assert out["events"][0]["player"] == "A" and out["events"][0]["cells"] == ["c3"]
    assert out["capture_check"] == []  # no enemy stone on the board to weigh
    game = out["game"]
    assert (game["over"], game["result"], game["reason"]) == (False, None, None)
    assert game["repetition"] == "evaluated"  # an empty history is a history


@pytest.mark.parametrize(
    "history, expected",
    [
        (None, "not_evaluated"),
        ("absent", "not_evaluated"),
        ([], "evaluated"),
        ([START_HPN], "evaluated"),
        ([START_JSON, C3_D4_HPN], "evaluated"),
    ],
)
def test_repetition_is_evaluated_exactly_with_a_history(client, history, expected):
    body = {"position": LOCK_HPN, "turn": "a1 +a2 #c3"}
    if history != "absent":
        body["history"] = history
    resp, v = post(client, "/v1/check", body)
    assert resp.status_code == 200 and v["legal"] is True
    assert v["outcome"]["game"]["repetition"] == expected
    assert v["outcome"]["game"]["over"] is False


def test_echo_lock_outcome_lists_locked_cell(client):
    # a1 empty → Place; +a2 (1 step from a1, tier 0 → 1); #c3: A's stone, tier 2, unlocked, A's first lock,
    # 3 charges → 2.  e5 (B, tier 0) is never weighed.
    resp, v = post(client, "/v1/check", {"position": LOCK_HPN, "turn": "a1 +a2 #c3"})
    assert resp.status_code == 200
    assert_verdict_shape(v)
    assert v["legal"] is True and v["turn"] == "a1 +a2 #c3"
    out = v["outcome"]
    assert out["position"] == {
        "to_move": "B",
        "half_moves": 3,
        "cells": {
            "a1": {"tier": 0, "stone": "A"},
            "a2": {"tier": 1},
            "c3": {"tier": 2, "stone": "A", "locked": True},
            "e5": {"tier": 0, "stone": "B"},
        },
        "players": {
            "A": {**PLAYER0, "reserve": 5, "charges": 2, "raises": 2, "placed": True, "echo_lock_used": True},
            "B": {**PLAYER0, "reserve": 6, "raises": 1, "placed": True},
        },
    }
    assert_position_output(out["position"])
    assert out["hpn"] == "0A100/00000/002A*000/0000000/0000B00/00000/0000 B 5:2:6:0:2:PL:- 6:3:6:0:1:P:- 3"
    assert [(e["type"], e["player"], e["cells"]) for e in out["events"]] == [("lock", "A", ["c3"])]
    assert out["capture_check"] == []
    assert out["game"]["repetition"] == "not_evaluated"


@pytest.mark.parametrize("position", [CAPTURE_HPN, CAPTURE_JSON], ids=["hpn", "json-position"])
def test_encirclement_outcome_shows_the_weighing(client, position):
    # e5 +c3: A Places on e5 (tier 1) and raises c3 to 2.  B's d4 (tier 1) has A stones on all six
    # neighbours: 2 (c3) + 1 × 5 = 7 > 6 = 6 × 1 → captured (the Capture page's own example, RULES §7).
    resp, v = post(client, "/v1/check", {"position": position, "turn": "e5 +c3", "history": [START_HPN]})
    assert resp.status_code == 200
    assert_verdict_shape(v)
    assert v["legal"] is True
    out = v["outcome"]
    assert out["position"] == {
        "to_move": "B",
        "half_moves": 11,
        "cells": {
            "c3": {"tier": 2, "stone": "A"},
            "c4": {"tier": 1, "stone": "A"},
            "d3": {"tier": 1, "stone": "A"},
            "d4": {"tier": 1},
            "d5": {"tier": 1, "stone": "A"},
            "e4": {"tier": 1, "stone": "A"},
            "e5": {"tier": 1, "stone": "A"},
        },
        "players": {
            "A": {**PLAYER0, "reserve": 1, "captures": 1, "raises": 5, "placed": True},
            "B": {**PLAYER0, "reserve": 7, "raises": 3, "placed": True, "cooldown": ["d4"]},
        },
    }
    assert_position_output(out["position"])
    assert out["hpn"] == "0000/00000/002A1A00/001A11A00/001A1A00/00000/0000 B 1:3:6:1:5:P:- 7:3:6:0:3:P:d4 11"
    # events in order: the capture, then the cooldown it sets
    assert [(e["type"], e["kind"], e["player"], e["cells"]) for e in out["events"]] == [
        ("capture", "encirclement", "A", ["d4"]),
        ("cooldown_set", None, "B", ["d4"]),
    ]
    assert next(e for e in out["events"] if e["type"] == "capture")["more"] == "https://hexodic.com/rules/capture"
    (w,) = out["capture_check"]
    assert (w["check"], w["cell"], w["owner"], w["tier"], w["sum"], w["threshold"], w["captured"]) == (
        "encirclement",
        "d4",
        "B",
        1,
        7,
        6,
        True,
    )
    assert sorted((t["kind"], t["cell"], t["value"]) for t in w["terms"]) == sorted(
        [("stone", "c3", 2)] + [("stone", c, 1) for c in ("c4", "d3", "d5", "e4", "e5")]
    )
    assert sum(t["value"] for t in w["terms"]) == w["sum"]
    assert w["rule_url"] == "/rules#capture.encirclement"  # the weighing links to the service's own text
    assert out["game"]["over"] is False and out["game"]["repetition"] == "evaluated"
    assert out["game"]["rule_url"] is None  # the game goes on: no reason to link


def test_same_verdict_for_json_and_text_forms(client):
    bodies = [
        {"position": p, "turn": t}
        for p in (CAPTURE_HPN, CAPTURE_JSON)
        for t in (
            "e5 +c3",
            {"project": {"kind": "place", "cell": "e5"}, "shape": {"kind": "raise", "cell": "c3"}, "echo": None},
        )
    ]
    answers = [post(client, "/v1/check", b)[1] for b in bodies]
    assert all(a == answers[0] for a in answers)


# --- POST /v1/legal-turns ---------------------------------------------------------------------------


def htn_to_turn(htn: str) -> dict:
    """RULES §10 HTN → the RULES §11 JSON turn, written independently of the checker."""
    tokens = htn.split(" ")
    first = tokens[0]
    if first == "skip":
        project = {"kind": "skip"}
    elif m := re.fullmatch(r"([a-g][1-7])[-x]([a-g][1-7])", first):
        project = {"kind": "move", "from": m[1], "to": m[2]}
    else:
        assert re.fullmatch(r"[a-g][1-7]", first), htn
        project = {"kind": "place", "cell": first}
    turn = {"project": project, "shape": None, "echo": None}
    for tok in tokens[1:]:
        assert re.fullmatch(r"[-+*#][a-g][1-7]", tok), htn
        if tok[0] in "+-":
            assert turn["shape"] is None and turn["echo"] is None, htn
            turn["shape"] = {"kind": "raise" if tok[0] == "+" else "lower", "cell": tok[1:]}
        else:
            assert turn["echo"] is None, htn
            turn["echo"] = {"kind": "capture" if tok[0] == "*" else "lock", "cell": tok[1:]}
    return turn


def normalised(turn: dict) -> dict:
    """``shape``/``echo`` may be null or absent (RULES §11)."""
    return {"project": turn["project"], "shape": turn.get("shape"), "echo": turn.get("echo")}


def assert_turn_list(body: dict):
    assert body["count"] == len(body["turns"])
    htns = [t["htn"] for t in body["turns"]]
    assert len(htns) == len(set(htns)), "a turn is listed twice"
    for item in body["turns"]:
        assert set(item) == {"htn", "turn"}
        assert item["htn"] == " ".join(item["htn"].split()) and item["htn"] == item["htn"].lower()
        assert normalised(item["turn"]) == htn_to_turn(item["htn"]), item
        assert_component("TurnObject", item["turn"], f"turn of {item['htn']}")


def test_start_position_has_480_legal_turns(client):
    """RULES: A moves first with 7 in reserve, so the Project is a Place (§4) on any of the 36 cells but
    d4 (opening restriction).  Every cell is tier 0, so the only legal Shapes are raises (§5 tier
    limits), of any cell within 2 steps of the landing cell, the landing cell included (D-6); they
    exist, so the Shape is mandatory.  No Echo: no enemy stone (Echo-Capture) and no tier-2 cell
    (Echo-Lock).  So the count is the sum, over the 36 cells, of the cells within 2 steps:
      ring 1 (6 cells):              19 each  = 114
      ring 2 corners (6, e.g. b2):   14 each  =  84   (5 of the 19 fall off the board)
      ring 2 sides (6, e.g. b3):     16 each  =  96   (3 fall off)
      ring 3 corners (6, e.g. a1):    9 each  =  54
      ring 3 sides (12, e.g. a2):    11 each  = 132
                                             = 480."""
    resp, body = post(client, "/v1/legal-turns", {"position": START_HPN})
    assert resp.status_code == 200
    assert body["count"] == 480
    assert len(body["turns"]) == 480
    # the same figure from RULES §1's step formula, and the very same turns
    assert sum(len(within(c)) for c in CELLS if c != "d4") == 480
    assert sorted(len(within(c)) for c in CELLS if steps(c, "d4") == 2) == [14] * 6 + [16] * 6
    expected = {f"{p} +{s}" for p in CELLS if p != "d4" for s in within(p)}
    assert {t["htn"] for t in body["turns"]} == expected
    assert_turn_list(body)
    # documented order: Projects in board order, then Shapes by cell
    keys = [(CELLS.index(t["turn"]["project"]["cell"]), CELLS.index(t["turn"]["shape"]["cell"])) for t in body["turns"]]
    assert keys == sorted(keys)


def test_legal_turns_in_the_htn_form(client):
    """form htn: the same turns, in the same order, each its HTN string only (the objects' htn)."""
    _, objects = post(client, "/v1/legal-turns", {"position": CAPTURE_HPN})
    resp, body = post(client, "/v1/legal-turns", {"position": CAPTURE_HPN, "form": "htn"})
    assert resp.status_code == 200
    assert list(body) == ["rules_version", "count", "turns"]
    assert body["count"] == objects["count"] == len(body["turns"])
    assert body["turns"] == [t["htn"] for t in objects["turns"]]
    assert all(normalised(t["turn"]) == htn_to_turn(h) for t, h in zip(objects["turns"], body["turns"]))
    assert len(resp.get_data()) * 5 < len(post(client, "/v1/legal-turns", {"position": CAPTURE_HPN})[0].get_data())
    _, explicit = post(client, "/v1/legal-turns", {"position": CAPTURE_HPN, "form": "objects"})
    assert explicit == objects
    _, start = post(client, "/v1/legal-turns", {"position": START_HPN, "project": "c3", "form": "htn"})
    assert start["turns"] == [f"c3 +{s}" for s in within("c3")]


@pytest.mark.parametrize("form", ["HTN", "json", "", None, 1])
def test_legal_turns_form_must_be_objects_or_htn(client, form):
    resp, body = post(client, "/v1/legal-turns", {"position": START_HPN, "form": form})
    assert resp.status_code == 422
    assert [e["path"] for e in body["errors"]] == ["form"]


def test_legal_turns_with_history_and_json_position(client):
    resp, body = post(client, "/v1/legal-turns", {"position": START_JSON, "history": []})
    assert resp.status_code == 200 and body["count"] == 480


@pytest.mark.parametrize("project", ["c3", "C3", {"kind": "place", "cell": "c3"}])
def test_legal_turns_filtered_by_project(client, project):
    # c3 is 1 step from d4, so all 19 cells within 2 steps of it are on the board
    resp, body = post(client, "/v1/legal-turns", {"position": START_HPN, "project": project})
    assert resp.status_code == 200
    assert body["count"] == 19 == len(within("c3"))
    assert [t["htn"] for t in body["turns"]] == [f"c3 +{s}" for s in within("c3")]
    assert_turn_list(body)


@pytest.mark.parametrize("shape", ["+d4", {"kind": "raise", "cell": "d4"}])
def test_legal_turns_filtered_by_project_and_shape(client, shape):
    resp, body = post(client, "/v1/legal-turns", {"position": START_HPN, "project": "c3", "shape": shape})
    assert resp.status_code == 200
    assert body["count"] == 1
    assert body["turns"] == [
        {
            "htn": "c3 +d4",
            "turn": {
                "project": {"kind": "place", "cell": "c3"},
                "shape": {"kind": "raise", "cell": "d4"},
                "echo": None,
            },
        }
    ]


@pytest.mark.parametrize(
    "project, shape", [("d4", None), ("c3", "-d4"), ("c3", "+g7"), ("skip", None), ("c3-c4", None)]
)
def test_legal_turns_filter_with_no_legal_turn(client, project, shape):
    # d4: opening restriction; -d4: tier 0 cannot be lowered; g7 is 4 steps from c3; no cooldown, so no
    # skip; a reserve of 7 allows no Move
    body = {"position": START_HPN, "project": project}
    if shape:
        body["shape"] = shape
    resp, out = post(client, "/v1/legal-turns", body)
    assert resp.status_code == 200
    assert out == {**out, "count": 0, "turns": []}


def test_every_listed_turn_checks_legal(client):
    resp, body = post(client, "/v1/legal-turns", {"position": CAPTURE_HPN})
    assert resp.status_code == 200 and body["count"] > 0
    assert_turn_list(body)
    assert "e5 +c3" in {t["htn"] for t in body["turns"]}
    for item in body["turns"][:: max(1, body["count"] // 25)]:
        _, v = post(client, "/v1/check", {"position": CAPTURE_HPN, "turn": item["htn"]})
        assert v["legal"] is True, (item["htn"], v["violations"])
        assert v["turn"] == item["htn"]
        _, v2 = post(client, "/v1/check", {"position": CAPTURE_HPN, "turn": item["turn"]})
        assert v2 == v


# --- POST /v1/validate ------------------------------------------------------------------------------


@pytest.mark.parametrize("position", [START_HPN, START_JSON], ids=["hpn", "json-position"])
def test_validate_start_position(client, position):
    resp, body = post(client, "/v1/validate", {"position": position})
    assert resp.status_code == 200
    assert body["consistent"] is True
    assert {c["rule"] for c in body["checks"]} == POSITION_IDS
    assert all(c["status"] == "passed" for c in body["checks"]), body["checks"]
    assert all(c["more"] == "https://hexodic.com/glossary" for c in body["checks"])
    status = body["status"]
    assert status["to_move"] == "A"
    assert status["game_over"] is False and status["reason"] is None
    assert status["cooldown_skip"] is False
    assert status["legal_turns"] == 480  # derived in test_start_position_has_480_legal_turns


def test_validate_capture_position_status(client):
    resp, body = post(client, "/v1/validate", {"position": CAPTURE_JSON})
    assert resp.status_code == 200 and body["consistent"] is True
    assert body["status"]["to_move"] == "A" and body["status"]["game_over"] is False
    count = post(client, "/v1/legal-turns", {"position": CAPTURE_JSON})[1]["count"]
    assert body["status"]["legal_turns"] == count


# Start position but d4 at tier 1 and half_moves 1 with A still to move: breaks position.to-move
# (half_moves odd → B) and position.tier-sum (tiers add up to 1, raises − lowers used = 0), nothing else.
INCONSISTENT_HPN = "0000/00000/000000/0001000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 1"


def test_validate_inconsistent_position(client):
    resp, body = post(client, "/v1/validate", {"position": INCONSISTENT_HPN})
    assert resp.status_code == 200
    assert body["consistent"] is False
    assert body["status"] is None
    assert {c["rule"] for c in body["checks"]} == POSITION_IDS
    failed = {c["rule"] for c in body["checks"] if c["status"] == "failed"}
    assert failed == {"position.to-move", "position.tier-sum"}
    for c in body["checks"]:
        assert c["status"] in ("passed", "failed"), c
        assert c["message"].strip()


# --- the schema check itself is not vacuous ---------------------------------------------------------


def test_schema_check_rejects_drifted_bodies(client):
    from tests.web.schema_validation import component, errors_of

    _, v = post(client, "/v1/check", {"position": CAPTURE_HPN, "turn": "e5 +c3"})
    verdict = component("Verdict")
    assert not errors_of(verdict, v)
    drifted = [
        {k: x for k, x in v.items() if k != "summary"},  # a required key missing
        {**v, "extra": 1},  # an undocumented key
        {**v, "legal": "yes"},  # a wrong type
        {**v, "outcome": {"anything": True}},  # outcome not an Outcome
        {**v, "outcome": {**v["outcome"], "game": {**v["outcome"]["game"], "repetition": "maybe"}}},
        {
            **v,
            "outcome": {
                **v["outcome"],
                "position": {**v["outcome"]["position"], "cells": {"c3": {"tier": 2, "stone": "C"}}},
            },
        },
        {**v, "checks": [{**v["checks"][0], "status": "skipped"}]},
    ]
    for body in drifted:
        assert errors_of(verdict, body), body
    assert not errors_of(verdict, {**v, "legal": False, "outcome": None})
    assert errors_of(component("Health"), {"status": "ok"})
    assert errors_of(
        component("Validation"),
        {"rules_version": RULES_VERSION, "consistent": True, "hpn": "", "checks": [], "status": {"to_move": "A"}},
    )


# --- every answer names the rules version (RULES: "Every response of the service names this version") -


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("GET", "/healthz", None),
        ("GET", "/v1/start", None),
        ("GET", "/v1/rules", None),
        ("POST", "/v1/check", {"position": START_HPN, "turn": "c3 +d4"}),
        ("POST", "/v1/legal-turns", {"position": START_HPN, "project": "c3"}),
        ("POST", "/v1/validate", {"position": START_HPN}),
        ("POST", "/v1/check", {"position": START_HPN, "turn": "c3 +h9"}),  # a 422
        ("GET", "/no-such-path", None),  # a 404
    ],
)
def test_every_answer_names_the_rules_version(client, method, path, body):
    resp = client.open(path, method=method, json=body)
    data = resp.get_json(silent=True)
    in_body = isinstance(data, dict) and data.get("rules_version") == RULES_VERSION
    assert in_body or resp.headers.get("Hexodic-Rules-Version") == RULES_VERSION, resp.headers


# --- the document's own constraints mean what they say -----------------------------------------------

_KEYWORD_TYPE = {
    "maxLength": "string",
    "minLength": "string",
    "pattern": "string",
    "maxItems": "array",
    "minItems": "array",
    "items": "array",
    "maxProperties": "object",
    "minProperties": "object",
    "properties": "object",
    "additionalProperties": "object",
    "minimum": ("integer", "number"),
    "maximum": ("integer", "number"),
}


def _walk(node, where=""):
    if isinstance(node, dict):
        yield where, node
        for k, v in node.items():
            yield from _walk(v, f"{where}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, f"{where}/{i}")


def test_openapi_keywords_fit_their_types():
    """A keyword JSON Schema ignores for the declared type (``maxLength`` on an object, say) documents a
    limit that no validator enforces, so the document and the service disagree silently."""
    wrong = []
    for where, node in _walk(document()["components"]["schemas"]):
        declared = node.get("type")
        if not isinstance(declared, str) or "/example" in where:
            continue
        for keyword, needs in _KEYWORD_TYPE.items():
            if keyword in node and declared not in ((needs,) if isinstance(needs, str) else needs):
                wrong.append(f"{where}: {keyword} on type {declared}")
    assert not wrong, "\n".join(wrong)
