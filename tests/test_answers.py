"""An answers file without traps (checker/tools/answers.py, ``hexodic-check vectors
--answers FILE``), and the JSON Schemas of the vectors and answers formats."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from checker.tools.answers import compare, schema
from checker.tools.cli import main
from checker.tools.vectors import read_vectors

VECTORS = read_vectors()
BY_ID = {v["id"]: v for v in VECTORS}
# a vector with two or more violations, so that their order can be tested
MULTI = next(v for v in VECTORS if len(v["violations"]) >= 2)
LEGAL = BY_ID["hand-open-01"]  # A's first Place c3 +d4, legal (RULES §4)


def _answer(v: dict, **changes) -> dict:
    a = {k: v[k] for k in ("id", "legal", "violations", "after", "game")}
    a.update(changes)
    return a


def _run(capsys, tmp_path, answers: list) -> tuple[int, str, str]:
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(a if isinstance(a, str) else json.dumps(a) for a in answers) + "\n", encoding="utf-8")
    code = main(["vectors", "--answers", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_violations_are_compared_as_a_set(capsys, tmp_path):
    answers = [_answer(v) for v in VECTORS]
    i = VECTORS.index(MULTI)
    answers[i] = _answer(MULTI, violations=list(reversed(MULTI["violations"])))
    code, out, _ = _run(capsys, tmp_path, answers)
    assert code == 0 and out.strip() == f"{len(VECTORS)} of {len(VECTORS)} vectors agree"


def test_a_missing_violation_is_a_difference_naming_it(capsys, tmp_path):
    answers = [_answer(v) for v in VECTORS]
    i = VECTORS.index(MULTI)
    answers[i] = _answer(MULTI, violations=MULTI["violations"][1:])
    code, out, _ = _run(capsys, tmp_path, answers)
    assert code == 1
    gone = MULTI["violations"][0]
    assert f"{MULTI['id']}: violations (compared as a set): " in out and f"(missing: {gone}; extra: (none))" in out
    assert out.strip().endswith(f"{len(VECTORS) - 1} of {len(VECTORS)} vectors agree")


def test_after_is_compared_as_a_position():
    # the same position with the cooldown cells in another order, and a different one
    pos = "21B00B/01001/00100A0/000A11B00/120B1A10/0A2A1B10/10A1B1B A 1:3:3:0:14:P:a4,b1 0:3:2:2:13:P:- 34"
    other_order = pos.replace("a4,b1", "b1,a4")
    vector = {**LEGAL, "after": pos}
    assert compare([(1, json.dumps(_answer(vector, after=other_order)))], [vector]).differences == []
    wrong = compare([(1, json.dumps(_answer(vector, after=LEGAL["position"])))], [vector]).differences
    assert wrong == [f"{LEGAL['id']}: after: expected {json.dumps(pos)}, got {json.dumps(LEGAL['position'])}"]


def test_unknown_and_repeated_ids_are_errors(capsys, tmp_path):
    answers = [_answer(v) for v in VECTORS]
    answers.insert(3, _answer(LEGAL, id="no-such-vector"))
    answers.append(_answer(LEGAL))
    code, out, err = _run(capsys, tmp_path, answers)
    assert code == 2 and out == ""
    assert err == (
        "hexodic-check: error: ANSWERS line 4: unknown id 'no-such-vector': no vector has it; "
        f"line {len(answers)}: id 'hand-open-01' is answered already, on line 1\n"
    )


def test_an_answer_the_schema_refuses_is_an_error(capsys, tmp_path):
    code, _, err = _run(
        capsys,
        tmp_path,
        [
            {"id": "hand-open-01", "legal": "yes", "violations": []},
            {"id": "hand-open-02", "legal": False, "violations": ["place.opening-restriction"], "After": None},
            {"id": "hand-open-03", "legal": True, "violations": ["place.empty"]},
            {"id": "hand-open-04", "legal": False, "violations": ["place.empty", "place.empty"]},
            {"legal": False, "violations": []},
            "[1, 2",
        ],
    )
    assert code == 2
    assert err.startswith(
        "hexodic-check: error: ANSWERS line 1: not an answer (answers.schema.json): legal: "
        "'yes' is not of type 'boolean'; line 2: "
    )
    assert "line 2: not an answer (answers.schema.json): Additional properties are not allowed ('After' was" in err
    assert "line 3: not an answer (answers.schema.json): violations: ['place.empty'] is expected to be empty" in err
    assert (
        "line 4: not an answer (answers.schema.json): violations: ['place.empty', 'place.empty'] has "
        "non-unique elements" in err
    )
    assert "line 5: not an answer (answers.schema.json): 'id' is a required property" in err
    assert "line 6: not valid JSON:" in err and err.count("\n") == 1


def test_the_shipped_vectors_and_the_checkers_answers_meet_the_schemas():
    vectors, answers = (Draft202012Validator(schema(n)) for n in ("vectors", "answers"))
    for s in (schema("vectors"), schema("answers")):
        Draft202012Validator.check_schema(s)
    from importlib import resources

    lines = resources.files("checker.data").joinpath("vectors.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["format"] == "hexodic-conformance-vectors"
    for line in lines:
        assert list(vectors.iter_errors(json.loads(line))) == [], line[:80]
    for v in VECTORS:
        assert list(answers.iter_errors(_answer(v))) == [], v["id"]
    # a vector line is not an answer (it has more fields), and an answer is not a vector line
    assert list(answers.iter_errors(VECTORS[0])) and list(vectors.iter_errors(_answer(VECTORS[0])))


@pytest.mark.parametrize("name", ["vectors", "answers"])
def test_the_schemas_name_what_a_client_needs(name):
    s = schema(name)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    text = json.dumps(s)
    assert "compared as a set" in text.lower() or "as a set" in text
