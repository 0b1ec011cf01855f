"""The timings the operations guide gives are the ones the service has (issue
36, point 7): docs/operations.md's timing table, its configuration table and
every figure its prose gives next to a timing's name (the keep-alive, the
body timeout, the work deadline, the drain, the graceful timeout, the preStop
sleep, the grace period) equal the settings' defaults
(checker/web/settings.py) and deploy/deployment.yaml; so do gunicorn.conf.py's
docstring and the Deployment's comments."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from checker.web import settings

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "operations.md"
DEPLOYMENT = ROOT / "deploy" / "deployment.yaml"


def _deployment() -> dict:
    (doc,) = [d for d in yaml.safe_load_all(DEPLOYMENT.read_text(encoding="utf-8")) if d and d["kind"] == "Deployment"]
    return doc


def _pod() -> dict:
    return _deployment()["spec"]["template"]["spec"]


def _prestop_sleep() -> float:
    """The seconds the Deployment's preStop hook sleeps (0 without one)."""
    (container,) = _pod()["containers"]
    hook = container.get("lifecycle", {}).get("preStop")
    if hook is None:
        return 0
    if "sleep" in hook:
        return hook["sleep"]["seconds"]
    command = " ".join(hook.get("exec", {}).get("command", []))
    return float(re.search(r"sleep (\d+(?:\.\d+)?)", command).group(1))


def _timings() -> dict[str, float]:
    """What each timing is: the settings' defaults, and the Deployment's."""
    server, app = settings.server({}), settings.from_env({})
    return {
        "GUNICORN_KEEPALIVE": server["keepalive"],
        "HEXODIC_BODY_TIMEOUT": app["BODY_TIMEOUT"],
        "HEXODIC_WORK_DEADLINE": app["WORK_DEADLINE"],
        "HEXODIC_DRAIN_SECONDS": server["drain"],
        "GUNICORN_GRACEFUL_TIMEOUT": server["graceful_timeout"],
        "GUNICORN_TIMEOUT": server["timeout"],
        "preStop": _prestop_sleep(),
        "terminationGracePeriodSeconds": _pod()["terminationGracePeriodSeconds"],
    }


TIMINGS = _timings()

# the words that name a timing in prose, and the timing each names
TERMS = {
    r"keep-alive|GUNICORN_KEEPALIVE": "GUNICORN_KEEPALIVE",
    r"body timeout|HEXODIC_BODY_TIMEOUT": "HEXODIC_BODY_TIMEOUT",
    r"work deadline|HEXODIC_WORK_DEADLINE": "HEXODIC_WORK_DEADLINE",
    r"drain|HEXODIC_DRAIN_SECONDS": "HEXODIC_DRAIN_SECONDS",
    r"graceful timeout|GUNICORN_GRACEFUL_TIMEOUT": "GUNICORN_GRACEFUL_TIMEOUT",
    r"worker timeout|GUNICORN_TIMEOUT": "GUNICORN_TIMEOUT",
    r"preStop": "preStop",
    r"grace period|terminationGracePeriodSeconds": "terminationGracePeriodSeconds",
}
SECONDS = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s+s\b")
END = re.compile(r"[.,;:|](\s|$)|\|")  # a figure after one of these belongs to something else
WINDOW = 40


def _figures(text: str) -> list[tuple[str, str, float, float]]:
    """(term, where, figure, what it should be) for every "N s" that follows a
    timing's name within WINDOW characters and before the end of its clause,
    every "N s" just before one ("the 8 s graceful timeout"), and every
    `docker stop -t N`."""
    found = []
    for pattern, timing in TERMS.items():
        for m in re.finditer(rf"(?<![\d.])(\d+(?:\.\d+)?)\s+s\s+[`(]?(?:{pattern})", text):
            term = re.search(pattern, m.group(0)).group(0)
            found.append((term, m.group(0).replace("\n", " "), float(m.group(1)), TIMINGS[timing]))
        for m in re.finditer(pattern, text):
            after = text[m.end() : m.end() + WINDOW]
            end = END.search(after)
            clause = after[: end.start()] if end else after
            for figure in SECONDS.finditer(clause):
                where = text[max(0, m.start() - 30) : m.end() + WINDOW].replace("\n", " ")
                found.append((m.group(0), where, float(figure.group(1)), TIMINGS[timing]))
    for m in re.finditer(r"docker stop -t (\d+)", text):
        found.append((m.group(0), m.group(0), float(m.group(1)), TIMINGS["terminationGracePeriodSeconds"]))
    return found


def _table(text: str, header: str) -> list[list[str]]:
    lines = text.splitlines()
    start = lines.index(header)
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_timing_table_is_the_settings_and_the_deployment():
    rows = _table(GUIDE.read_text(encoding="utf-8"), "| timing | seconds | set by |")
    given = {}
    for _, seconds, set_by in rows:
        name = re.findall(r"`(\w+)`", set_by)[-1]  # a variable, or preStop / terminationGracePeriodSeconds
        given[name] = float(seconds)
    assert given == {name: float(value) for name, value in TIMINGS.items()}


def test_the_configuration_table_gives_the_same_defaults():
    rows = _table(GUIDE.read_text(encoding="utf-8"), "| variable | default | what |")
    defaults = {
        re.fullmatch(r"`(\w+)`", variable).group(1): default for variable, default, _ in rows if "," not in variable
    }
    for name in ("GUNICORN_KEEPALIVE", "HEXODIC_BODY_TIMEOUT", "HEXODIC_WORK_DEADLINE", "HEXODIC_DRAIN_SECONDS"):
        assert float(defaults[name]) == TIMINGS[name], name
    for name in ("GUNICORN_GRACEFUL_TIMEOUT", "GUNICORN_TIMEOUT"):
        assert float(defaults[name]) == TIMINGS[name], name


def test_the_deployment_runs_the_defaults_the_guide_gives():
    (container,) = _pod()["containers"]
    env = {e["name"]: e["value"] for e in container.get("env", [])}
    for name in TIMINGS:
        if name in env:
            assert float(env[name]) == TIMINGS[name], name
    # and the grace period covers the drain, the master's second and the graceful timeout
    assert (
        TIMINGS["preStop"] + TIMINGS["HEXODIC_DRAIN_SECONDS"] + 1 + TIMINGS["GUNICORN_GRACEFUL_TIMEOUT"]
        < (TIMINGS["terminationGracePeriodSeconds"])
    )


def _comments(path: Path) -> str:
    return "\n".join(line.split("#", 1)[1] for line in path.read_text(encoding="utf-8").splitlines() if "#" in line)


@pytest.mark.parametrize(
    "name, text",
    [
        ("docs/operations.md", lambda: GUIDE.read_text(encoding="utf-8")),
        ("gunicorn.conf.py", lambda: (ROOT / "gunicorn.conf.py").read_text(encoding="utf-8").split('"""')[1]),
        ("deploy/deployment.yaml", lambda: _comments(DEPLOYMENT)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_every_figure_next_to_a_timing_is_that_timing(name, text):
    figures = _figures(text())
    wrong = [(term, where, figure, right) for term, where, figure, right in figures if figure != right]
    assert not wrong, "\n".join(
        f"{name}: {term} {figure:g} s, not {right:g}: ...{where}..." for term, where, figure, right in wrong
    )
    if name == "docs/operations.md":  # the guide gives each of them somewhere in its prose
        named = {TERMS[p] for p in TERMS for term, *_ in figures if re.fullmatch(p, term)}
        assert named >= {
            "GUNICORN_KEEPALIVE",
            "HEXODIC_DRAIN_SECONDS",
            "HEXODIC_WORK_DEADLINE",
            "GUNICORN_GRACEFUL_TIMEOUT",
        }


def test_the_figures_are_found_where_they_are_wrong():
    """The contradictions issue 36 found, as they were written, are caught."""
    old = (
        "idle keep-alive connections close within their 2 s, so gunicorn is gone within 10 s. "
        "a 3 s `preStop` sleep (the endpoints drop the pod) then gunicorn's 8 s graceful timeout, "
        "inside a 15 s grace period. The deadlines: within the keep-alive time (2 s; gevent's worker"
    )
    wrong = sorted((term, figure) for term, _, figure, right in _figures(old) if figure != right)
    assert wrong == [("grace period", 15.0), ("keep-alive", 2.0), ("keep-alive", 2.0), ("preStop", 3.0)], wrong
    assert [f for t, _, f, _ in _figures("a `preStop` sleep of 3 s") if t == "preStop"] == [3.0]
    assert [f for t, _, f, _ in _figures("inside the grace period (15 s)") if t == "grace period"] == [15.0]
    assert _figures("closed after 2 s (the keep-alive of that run)") == []
