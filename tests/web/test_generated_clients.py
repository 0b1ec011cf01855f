"""Clients generated from openapi.yaml, run against the real service (issue 37).

gunicorn serves on loopback (bench.server.running_gunicorn) once for the module;
each client is generated once, into a temporary directory:

- TypeScript: openapi-typescript writes the types, and a program made of
  docs/clients.md's snippet and every example request body of docs/api.md
  (each an openapi-fetch call) is compiled with ``tsc --strict`` and run by node
  against the server; each answer must hold what docs/api.md says it holds.  A
  body the contract refuses does not compile.
- Python: openapi-python-client (with clients/openapi-python-client.yaml)
  writes a package; docs/clients.md's snippet runs as written, and the client
  checks a turn, lists legal turns, replays a game, validates a position, draws
  SVG and PNG, downloads the vectors and fetches the document.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bench.server import running_gunicorn
from tests.web.test_contract_lints import _run, node_tool

ROOT = Path(__file__).resolve().parents[2]
API_MD = ROOT / "docs" / "api.md"
CLIENTS_MD = ROOT / "docs" / "clients.md"
START = "0000/00000/000000/0000000/000000/00000/0000 A 7:3:6:0:0:-:- 7:3:6:0:0:-:- 0"
DOC_BASE = "http://127.0.0.1:8000"  # the base URL docs/clients.md's snippets name


@pytest.fixture(scope="module")
def base():
    with running_gunicorn() as srv:
        yield srv.base.rstrip("/")


def snippet(language: str) -> str:
    """docs/clients.md's code block in ``language`` that makes a client."""
    blocks = re.findall(rf"```{language}\n(.*?)```", CLIENTS_MD.read_text(encoding="utf-8"), flags=re.S)
    made = [b for b in blocks if DOC_BASE in b]
    assert len(made) == 1, f"docs/clients.md has {len(made)} {language} snippets naming {DOC_BASE}"
    return made[0]


def command(language: str) -> str:
    """docs/clients.md's one-line generation command for the client in ``language``."""
    text = CLIENTS_MD.read_text(encoding="utf-8")
    tool = {"ts": "openapi-typescript", "python": "openapi-python-client"}[language]
    lines = [line for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S) for line in block.splitlines()]
    found = [line for line in lines if tool in line]
    assert len(found) == 1, found
    return found[0]


def examples() -> list[dict]:
    """docs/api.md's examples: ``{method, path, title, body, answer, media}``, the
    answer the JSON fields the answer holds (None for a picture, whose media
    type is given instead)."""
    section = API_MD.read_text(encoding="utf-8").split("\n## Examples", 1)[1].split("\n## ", 1)[0]
    out = []
    for part in re.split(r"^### ", section, flags=re.M)[1:]:
        head = re.match(r"`(GET|POST) (\S+)`(.*)", part)
        assert head, part[:80]
        blocks = re.findall(r"```json\n(.*?)```", part, flags=re.S)
        answer = json.loads(blocks[1]) if len(blocks) > 1 else None
        media = None if answer is not None else re.search(r"Answer: .*`([a-z]+/[a-z+.-]+)`", part).group(1)
        out.append(
            {
                "method": head[1],
                "path": head[2],
                "title": head[0],
                "body": json.loads(blocks[0]),
                "answer": answer,
                "media": media,
            }
        )
    return out


def holds(answer, part) -> bool:
    """``answer`` holds ``part``: its keys with equal values (recursively); lists item by item."""
    if isinstance(part, dict):
        return isinstance(answer, dict) and all(k in answer and holds(answer[k], v) for k, v in part.items())
    if isinstance(part, list) and part and isinstance(part[0], dict):
        return isinstance(answer, list) and len(answer) == len(part) and all(map(holds, answer, part))
    return answer == part


def test_the_examples_are_every_post_of_the_api():
    posts = {e["path"] for e in examples()}
    assert posts == {
        "/v1/check",
        "/v1/check/batch",
        "/v1/legal-turns",
        "/v1/replay",
        "/v1/validate",
        "/v1/perft",
        "/v1/render",
        "/v1/render/view",
    }


# --------------------------------------------------------------------------- TypeScript


PROGRAM = """\
import createClient from "openapi-fetch";
import type {{ paths }} from "./schema";

declare const process: {{ argv: string[] }};
const client = createClient<paths>({{ baseUrl: process.argv[2] }});
const answers: unknown[] = [];
{calls}
console.log(JSON.stringify(answers));
"""

CALL = """\
{{
  const {{ data, error, response }} = await client.{method}("{path}", {{ body: {body}{parse} }});
  answers.push({{ status: response.status, media: response.headers.get("content-type"), data: data ?? error }});
}}
"""

TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "target": "ES2022",
        "module": "ES2022",
        "moduleResolution": "bundler",
        "lib": ["ES2022", "DOM"],
        "outDir": "dist",
        "skipLibCheck": True,
    },
    "include": ["*.ts"],
}


@pytest.fixture(scope="module")
def ts_project(tmp_path_factory):
    """A directory with the generated types (docs/clients.md's command, on the file), openapi-fetch
    (the repository's node_modules) and a tsconfig with ``strict``."""
    where = tmp_path_factory.mktemp("ts-client")
    generate = command("ts").replace("npx openapi-typescript", str(node_tool("openapi-typescript")))
    generate = generate.replace(f"{DOC_BASE}/openapi.yaml", str(ROOT / "openapi.yaml"))
    proc = _run(generate.split(), cwd=where)
    assert proc.returncode == 0 and (where / "schema.d.ts").exists(), proc.stdout + proc.stderr
    (where / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    (where / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    (where / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2), encoding="utf-8")
    return where


def tsc(where: Path) -> subprocess.CompletedProcess:
    return _run([str(node_tool("tsc")), "-p", "tsconfig.json"], cwd=where)


def program(cases: list[dict]) -> str:
    calls = [
        CALL.format(
            method=case["method"],
            path=case["path"],
            body=json.dumps(case["body"], ensure_ascii=False),
            parse=', parseAs: "text"' if case.get("media") else "",
        )
        for case in cases
    ]
    return PROGRAM.format(calls="".join(calls))


@pytest.fixture(scope="module")
def ts_answers(ts_project, base):
    """Every example of docs/api.md and docs/clients.md's snippet, compiled together with tsc --strict
    and run by node against the server: (the examples' answers, the snippet's output)."""
    (ts_project / "examples.ts").write_text(program(examples()), encoding="utf-8")
    (ts_project / "snippet.ts").write_text(snippet("ts").replace(DOC_BASE, base), encoding="utf-8")
    proc = tsc(ts_project)
    assert proc.returncode == 0, "tsc --strict refused:\n" + proc.stdout + proc.stderr
    ran = _run(["node", "dist/examples.js", base], cwd=ts_project)
    assert ran.returncode == 0, ran.stderr
    shown = _run(["node", "dist/snippet.js"], cwd=ts_project)
    assert shown.returncode == 0, shown.stderr
    return json.loads(ran.stdout), shown.stdout


@pytest.mark.parametrize("index", range(len(examples())), ids=[e["title"] for e in examples()])
def test_each_example_compiles_and_gets_its_documented_answer(ts_answers, index):
    case, got = examples()[index], ts_answers[0][index]
    assert got["status"] == 200, got
    if case["answer"] is None:
        assert got["media"].startswith(case["media"]) and got["data"].startswith("<svg"), got["media"]
    else:
        assert got["media"].startswith("application/json")
        assert holds(got["data"], case["answer"]), f"{case['title']}: {json.dumps(got['data'])[:800]}"


def test_the_typescript_snippet_runs(ts_answers):
    assert ts_answers[1].split()[:2] == ["true", "A"]


def test_a_body_the_contract_refuses_does_not_compile(ts_project, tmp_path):
    """What the generated types refuse, as tsc --strict reports it: a wrong turn type, a missing
    turn, a player that is not A or B, an unknown form.  (An unknown field passes: openapi-fetch's
    body parameter is generic, so TypeScript's excess-property check does not reach it.)"""
    bad = [
        {"method": "POST", "path": "/v1/check", "body": {"position": START, "turn": 5}},
        {"method": "POST", "path": "/v1/check", "body": {"position": START}},
        {"method": "POST", "path": "/v1/validate", "body": {"position": {**_start_object(), "to_move": "C"}}},
        {"method": "POST", "path": "/v1/legal-turns", "body": {"position": START, "form": "text"}},
    ]
    where = tmp_path / "bad"
    where.mkdir()
    for name in ("schema.d.ts", "node_modules", "package.json", "tsconfig.json"):
        (where / name).symlink_to(ts_project / name)
    (where / "bad.ts").write_text(program(bad), encoding="utf-8")
    proc = tsc(where)
    errors = re.findall(r"bad\.ts\((\d+),\d+\): error", proc.stdout)
    assert proc.returncode != 0 and len(set(errors)) == len(bad), proc.stdout


def _start_object() -> dict:
    player = {"reserve": 7, "charges": 3, "lowers_left": 6, "captures": 0, "raises": 0}
    player |= {"placed": False, "echo_lock_used": False}
    return {"to_move": "A", "half_moves": 0, "players": {"A": player, "B": player}}


# --------------------------------------------------------------------------- Python


@pytest.fixture(scope="module")
def py_client(tmp_path_factory):
    """The generated package, made by docs/clients.md's command (with this venv's generator), imported."""
    where = tmp_path_factory.mktemp("py-client")
    generate = command("python").split()
    generate[0] = str(Path(sys.executable).parent / "openapi-python-client")
    generate[generate.index("--path") + 1] = str(ROOT / "openapi.yaml")
    generate[generate.index("--config") + 1] = str(ROOT / generate[generate.index("--config") + 1])
    proc = subprocess.run(generate, cwd=where, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0 and (where / "hexodic_checker_client").is_dir(), proc.stdout + proc.stderr
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module("hexodic_checker_client")
    finally:
        sys.path.remove(str(where))
        for name in [n for n in sys.modules if n.split(".")[0] == "hexodic_checker_client"]:
            del sys.modules[name]


@pytest.fixture
def client(py_client, base):
    return py_client.Client(base_url=base, raise_on_unexpected_status=True)


def api(name: str):
    return importlib.import_module("hexodic_checker_client.api." + name)


def models():
    return importlib.import_module("hexodic_checker_client.models")


def test_the_python_snippet_runs(py_client, base):
    exec(compile(snippet("python").replace(DOC_BASE, base), "docs/clients.md", "exec"), {})


def test_check_a_turn(client):
    m = models()
    verdict = api("turns.check_turn").sync(client=client, body=m.CheckRequest(position=START, turn="d4 +c3"))
    assert isinstance(verdict, m.Verdict) and verdict.legal is False and verdict.mover is m.PlayerId.A
    assert verdict.violations == [m.RuleId.PLACE_OPENING_RESTRICTION]
    assert verdict.checks[0].status is m.CheckStatus.PASSED and verdict.outcome is None


def test_list_legal_turns(client):
    m = models()
    body = m.LegalTurnsRequest(position=START, project="c3")
    answer = api("legal_turns_and_perft.list_legal_turns").sync(client=client, body=body)
    assert isinstance(answer, m.LegalTurns) and answer.count == 19 == len(answer.turns)
    assert answer.turns[0].htn == "c3 +a1"


def test_replay_a_game(client):
    m = models()
    answer = api("games.replay_game").sync(client=client, body=m.ReplayRequest(turns=["c3 +d4", "e5 +d4"]))
    assert isinstance(answer, m.Replay) and answer.checked == 2 and answer.legal is True
    assert answer.final.position.to_move is m.PlayerId.A and answer.game.result is None


def test_validate_a_position(client):
    m = models()
    position = m.PositionObject.from_dict({**_start_object(), "cells": {"d4": {"tier": 3}}})
    answer = api("positions.validate_position").sync(client=client, body=m.ValidateRequest(position=position))
    assert isinstance(answer, m.Validation) and answer.consistent is False and answer.status is None
    failed = [c.rule for c in answer.checks if c.status is m.CheckStatus.FAILED]
    assert m.RuleId.POSITION_TIER in failed


def test_render_svg_and_png(client):
    m = models()
    svg = api("pictures.render_board").sync(client=client, body=m.RenderRequest(position=START, highlight=["c3"]))
    assert isinstance(svg, str) and svg.startswith("<svg")
    svg_url = api("pictures.render_svg_by_url").sync(client=client, position=START)
    assert isinstance(svg_url, str) and svg_url.startswith("<svg")
    png = api("pictures.render_png_by_url").sync(client=client, position=START, size=200)
    data = png.payload.read()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and int.from_bytes(data[16:20], "big") == 200


def test_download_the_vectors(client):
    text = api("rules_and_vectors.get_vectors").sync(client=client)
    header, *vectors = [json.loads(line) for line in text.splitlines()]
    assert header["count"] == len(vectors) > 0 and {"id", "position", "turn", "legal"} <= set(vectors[0])


def test_fetch_the_document(client):
    text = api("service.get_open_api_document").sync(client=client)
    assert isinstance(text, str)
    assert yaml.safe_load(text) == yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


def test_the_operation_ids_are_listed_in_docs_clients_md():
    document = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    ids = {
        op["operationId"]: f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method, op in item.items()
    }
    listed = dict(re.findall(r"^\| `(\w+)` \| `([A-Z]+ \S+)` \|$", CLIENTS_MD.read_text(encoding="utf-8"), re.M))
    assert listed == ids
    assert all(re.fullmatch(r"[a-z][A-Za-z]+", name) for name in ids)
