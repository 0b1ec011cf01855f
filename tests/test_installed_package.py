"""The installed package serves everything: the project is built into a wheel
from the files the Dockerfile copies, installed (not editable, no source
beside it) into a fresh virtual environment outside the repository with the
dependencies from requirements.lock, and served as the image serves it
(gunicorn --config gunicorn.conf.py, from a folder holding only that file).
Every page and asset answers, byte for byte what the repository's app
answers; this catches package data left out of the wheel.

Bounded: about 20-30 s with pip's cache warm (the lock's wheels), most of it
creating the environment and installing the lock.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bench.server import running_gunicorn
from checker.web import create_app
from tests.helpers import START_HPN
from tests.test_dockerfile import _instructions

ROOT = Path(__file__).resolve().parents[1]
PIP_TIMEOUT = 300

# Every page and asset to fetch from the installed package: add new pages here.
PAGES = [
    "/",
    "/static/playground/playground.js",
    "/static/playground/playground.css",
    "/static/playground/noscript.css",
    "/docs",
    "/docs/assets/swagger-ui.css",
    "/docs/assets/swagger-ui-bundle.js",
    "/docs/assets/docs.js",
    "/openapi.yaml",
    "/v1/vectors",
    "/v1/vectors/schema",
    "/v1/rules",
    "/v1/start",
    "/llms.txt",
    "/healthz",
    "/readyz",
]

# pip writes no .pyc files, as the Makefile's installs (a module is compiled when first imported)
PIP_INSTALL = ("-m", "pip", "install", "--quiet", "--no-compile")


def _image_files(dockerfile: str) -> dict[str, list[tuple[str, str]]]:
    """WORKDIR -> [(source, destination)] of the Dockerfile's COPY instructions."""
    out: dict[str, list[tuple[str, str]]] = {}
    workdir = "/"
    for word, args in _instructions(dockerfile):
        if word == "WORKDIR":
            workdir = args
        elif word == "COPY":
            *sources, dest = args.split()
            assert not any(s.startswith("--") for s in sources), args
            out.setdefault(workdir, []).extend((s, dest) for s in sources)
    return out


def test_image_files_parser():
    text = "WORKDIR /src\nCOPY a b ./\nCOPY c ./c\nWORKDIR /app\nCOPY d ./\n"
    assert _image_files(text) == {"/src": [("a", "./"), ("b", "./"), ("c", "./c")], "/app": [("d", "./")]}


def _lay_out(image: Path) -> dict[str, Path]:
    """The Dockerfile's COPY instructions carried out under ``image``."""
    folders = {}
    for workdir, copies in _image_files((ROOT / "Dockerfile").read_text(encoding="utf-8")).items():
        folder = image / workdir.strip("/")
        folders[workdir] = folder
        for source, dest in copies:
            target = folder / dest if not dest.endswith("/") else folder / dest / Path(source).name
            src = ROOT / source
            target.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy2(src, target)
    return folders


def _run(*argv, cwd: Path | None = None) -> str:
    proc = subprocess.run(
        [str(a) for a in argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=PIP_TIMEOUT,
        env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")},
    )
    assert proc.returncode == 0, f"{argv} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the environment's bin folder, the folder gunicorn runs in, the wheel)."""
    tmp = tmp_path_factory.mktemp("installed")
    folders = _lay_out(tmp / "image")
    src = next(f for f in folders.values() if (f / "pyproject.toml").exists())
    app = next(f for f in folders.values() if (f / "gunicorn.conf.py").exists())
    assert src != app, "the server would run beside the source, not the installed package"
    venv = tmp / "venv"
    _run(sys.executable, "-m", "venv", venv)
    bin_ = venv / "bin"
    _run(bin_ / "python", *PIP_INSTALL, "--require-hashes", "-r", ROOT / "requirements.lock")
    _run(bin_ / "python", "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp / "dist", src)
    (wheel,) = (tmp / "dist").glob("hexodic_checker-*.whl")
    _run(bin_ / "python", *PIP_INSTALL, "--no-deps", wheel)
    return bin_, app, wheel


def test_the_wheel_holds_every_file_of_the_packages(installed):
    """Every file under checker/ and schemas/ (code and data) is in the wheel."""
    _, _, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        p.relative_to(ROOT).as_posix()
        for package in ("checker", "schemas")
        for p in (ROOT / package).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert sorted(expected - names) == []


def test_it_is_installed_not_linked_to_the_repository(installed):
    bin_, app, _ = installed
    where = _run(
        bin_ / "python", "-c", "import checker, schemas; print(checker.__file__); print(schemas.__file__)", cwd=app
    )
    for line in where.split():
        path = Path(line).resolve()
        assert (bin_.parent / "lib").resolve() in path.parents, line
        assert ROOT not in path.parents, line
    assert not list(bin_.parent.glob("lib/python*/site-packages/__editable__*"))


def test_the_installed_package_serves_every_page(installed, client_bodies):
    bin_, app, _ = installed
    with running_gunicorn(gunicorn=bin_ / "gunicorn", cwd=app, WEB_CONCURRENCY="1", GUNICORN_ACCESS_LOG="") as srv:
        import http.client

        for path in PAGES:
            conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
            try:
                conn.request("GET", path)
                resp = conn.getresponse()
                body = resp.read()
            finally:
                conn.close()
            assert resp.status == 200, (path, resp.status, body[:300])
            assert body == client_bodies[path], f"{path}: the installed package answers differently"
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
        try:
            conn.request(
                "POST",
                "/v1/check",
                body=f'{{"position": "{START_HPN}", "turn": "d4 +c3"}}',
                headers={"Content-Type": "application/json"},
            )
            resp = conn.getresponse()
            verdict = resp.read()
        finally:
            conn.close()
        # A's first Place on the centre: the opening restriction (RULES §4)
        assert resp.status == 200 and re.search(rb'"violations":\["place.opening-restriction"\]', verdict)
        assert "Traceback" not in srv.output()


@pytest.fixture(scope="module")
def client_bodies() -> dict[str, bytes]:
    """What the repository's own app answers for each page."""
    client = create_app({"TESTING": True}).test_client()
    return {path: client.get(path).get_data() for path in PAGES}


# -- The light install: the core alone, as an engine author's CI installs it --------------------


@pytest.fixture(scope="module")
def core_only(installed, tmp_path_factory):
    """A fresh environment with the core alone: requirements-core.lock and the same wheel."""
    _, _, wheel = installed
    venv = tmp_path_factory.mktemp("core") / "venv"
    _run(sys.executable, "-m", "venv", venv)
    bin_ = venv / "bin"
    _run(bin_ / "python", *PIP_INSTALL, "--require-hashes", "-r", ROOT / "requirements-core.lock")
    _run(bin_ / "python", *PIP_INSTALL, "--no-deps", wheel)
    return bin_


def _exit(bin_: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(bin_ / argv[0]), *argv[1:]], capture_output=True, text=True, timeout=120, cwd=bin_.parent
    )


def test_the_core_install_has_no_server_and_no_audit(core_only):
    for module in ("flask", "gunicorn", "gevent", "prometheus_client", "resvg_py", "dask", "distributed", "pyarrow"):
        proc = _exit(core_only, "python", "-c", f"import {module}")
        assert proc.returncode == 1 and "ModuleNotFoundError" in proc.stderr, module
    # what the core is: marshmallow and the few the command needs, nothing else of the project's
    listed = _run(core_only / "python", "-m", "pip", "list", "--format=freeze")
    names = {line.split("==")[0].lower() for line in listed.split()}
    assert "flask" not in names and "marshmallow" in names and "hexodic-checker" in names


def test_the_core_install_checks_and_conforms(core_only):
    proc = _exit(core_only, "hexodic-check", "check", START_HPN, "d4 +c3")
    # A's first Place on the centre: the opening restriction (RULES §4)
    assert proc.returncode == 1 and "place.opening-restriction" in proc.stdout, proc.stderr
    proc = _exit(core_only, "hexodic-check", "check", START_HPN, "c2 +b3")
    assert proc.returncode == 0 and proc.stdout.startswith("Legal: A Places on c2 and raises b3."), proc.stderr
    engine = f"{core_only / 'hexodic-check'} engine"
    argv = ("--vectors", "hand-place*", "--games", "1", "--positions", "start", "--depth", "1", "--no-progress")
    proc = _exit(core_only, "hexodic-check", "conform", "--engine", engine, *argv)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "conform: the engine agrees with the checker" in proc.stdout


@pytest.mark.parametrize(
    "argv, extra",
    [
        (("hexodic-checker-serve",), "server"),
        (("hexodic-checker-openapi",), "server"),
        (("hexodic-check", "audit", "games.jsonl", "--out", "rows.jsonl"), "audit"),
        (("hexodic-check", "mcp"), "mcp"),
    ],
    ids=lambda v: v[0] if isinstance(v, tuple) else v,
)
def test_a_command_whose_extra_is_missing_says_which_to_install(core_only, argv, extra):
    proc = _exit(core_only, *argv)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    (line,) = proc.stderr.splitlines()
    if argv[0] == "hexodic-check":
        assert line.startswith("hexodic-check: error: ")
    assert f"the {extra} extra is not installed" in line and f"pip install 'hexodic-checker[{extra}]'" in line
