"""openapi.yaml through the linters client authors run (issue 37): Redocly CLI's
recommended rules (``redocly.yaml``) and Spectral's OpenAPI rules
(``.spectral.yaml``), the versions ``package-lock.json`` pins (``make test``
installs them with ``npm ci``).  No errors from either; every warning kept is
one docs/api.md explains (its "Lints" section), and every one explained is
still found.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "node_modules" / ".bin"
API_MD = ROOT / "docs" / "api.md"
QUIET = {"REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}


def node_tool(name: str) -> Path:
    """A Node tool of package.json, installed by ``make test`` (``npm ci``); a
    test without it is skipped, or fails where HEXODIC_REQUIRE_NODE is set (CI)."""
    tool = BIN / name
    if not tool.exists() or shutil.which("node") is None:
        message = f"{name} is not installed: run `npm ci` (make test does)"
        if os.environ.get("HEXODIC_REQUIRE_NODE"):
            pytest.fail(message)
        pytest.skip(message)
    return tool


def _run(args: list[str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=cwd, env={**os.environ, **QUIET}, capture_output=True, text=True, timeout=120, check=False
    )


def explained_warnings() -> set[tuple[str, str]]:
    """(linter, rule) of each warning docs/api.md's "Lints" section keeps and explains."""
    section = API_MD.read_text(encoding="utf-8").split("\n## Lints", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^- (Redocly|Spectral) `([a-z0-9$-]+)`: \S", section, flags=re.M))


def redocly_problems(document: Path) -> list[dict]:
    proc = _run([str(node_tool("redocly")), "lint", str(document), "--format=json", "--config", "redocly.yaml"])
    assert proc.stdout.strip(), proc.stderr
    return json.loads(proc.stdout)["problems"]


def spectral_problems(document: Path, tmp_path: Path) -> list[dict]:
    out = tmp_path / "spectral.json"
    proc = _run(
        [str(node_tool("spectral")), "lint", str(document), "-r", ".spectral.yaml", "-f", "json", "-o", str(out)]
    )
    assert out.exists(), proc.stdout + proc.stderr
    return json.loads(out.read_text(encoding="utf-8"))


def _findings(redocly: list[dict], spectral: list[dict]) -> tuple[list[str], set[tuple[str, str]]]:
    """The errors (as text) and the warnings ((linter, rule)) of both linters."""
    errors = [f"Redocly {p['ruleId']}: {p['message']}" for p in redocly if p["severity"] == "error"]
    errors += [f"Spectral {p['code']}: {p['message']} at {p['path']}" for p in spectral if p["severity"] == 0]
    warnings = {("Redocly", p["ruleId"]) for p in redocly if p["severity"] == "warn"}
    warnings |= {("Spectral", p["code"]) for p in spectral if p["severity"] == 1}
    return errors, warnings


def test_the_document_passes_redocly_and_spectral(tmp_path):
    errors, warnings = _findings(
        redocly_problems(ROOT / "openapi.yaml"), spectral_problems(ROOT / "openapi.yaml", tmp_path)
    )
    assert errors == []
    explained = explained_warnings()
    assert warnings - explained == set(), "warnings docs/api.md does not explain (its Lints section)"
    assert explained - warnings == set(), "docs/api.md explains warnings the linters no longer give"


def test_the_linters_find_what_the_issue_found(tmp_path):
    """The same linters on a document spoilt the ways openapi.yaml once was: no
    operationId, no security, a nullable beside a oneOf, no servers."""
    import yaml

    doc = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    del doc["paths"]["/v1/check"]["post"]["operationId"]
    del doc["paths"]["/v1/check"]["post"]["security"]
    del doc["security"]
    del doc["servers"]
    start = doc["components"]["schemas"]["ReplayRequest"]["properties"]["start"]
    start["oneOf"].pop()
    start["nullable"] = True
    spoilt = tmp_path / "openapi.yaml"
    spoilt.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    errors, warnings = _findings(redocly_problems(spoilt), spectral_problems(spoilt, tmp_path))
    text = "\n".join(errors)
    assert "Redocly security-defined" in text and "Redocly nullable-type-sibling" in text
    assert "Redocly no-empty-servers" in text
    assert ("Redocly", "operation-operationId") in warnings and ("Spectral", "oas3-api-servers") in warnings
