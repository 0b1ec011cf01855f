"""The conformance driver: runs another Hexodic engine through the engine
protocol (docs/engine.md) and compares its answers with the checker's.

``hexodic-check conform --engine "COMMAND"`` starts COMMAND through the
shell and then:

1. every conformance vector: with the engine's ``check`` (when its ``hello``
   offers it), ``legal`` and ``violations`` (as sets) are compared; without
   it, a turn is legal for the engine when it is among the engine's
   ``legal-turns``.  For a legal turn, the position after ``play`` is
   compared as well;
2. perft over the published table (``checker/data/perft.json``) to the
   chosen depth: the engine's counts, made from its own ``legal-turns`` and
   ``play`` answers, against the table's.  Where a count differs, the
   divide descent: the first turn (in the checker's order) whose subtree
   count differs, then the same from the position after it, until the
   position whose legal-turn sets differ; that position is printed with the
   turns the engine is missing and those it has in excess.

Exit status (:data:`EXIT_AGREE`, :data:`EXIT_DIFFERENT`, :data:`EXIT_BROKEN`):
0 everything agrees, 1 a difference was found, 2 the engine broke the
protocol (no answer in time, an answer that is not JSON, a wrong ``id``, it
exited), with a one-line reason.  The engine is always stopped on the way
out, its whole process group with it.
"""

from __future__ import annotations

import fnmatch
import json
import os
import queue
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from checker.counting import after, perft
from checker.generate import legal_turns
from checker.notation import (
    NotationError,
    parse_hpn,
    parse_htn,
    position_to_hpn,
    turn_to_htn,
)
from checker.play import CaptureKind, apply
from checker.position import Position
from checker.tools import vectors as vec
from checker.tools.perft_table import TableEntry, load_table
from checker.turn import EchoKind, Move, ShapeKind, Skip, Turn

__all__ = ["EXIT_AGREE", "EXIT_DIFFERENT", "EXIT_BROKEN", "EngineBroke", "EngineRefused", "Engine", "Options", "run"]

EXIT_AGREE, EXIT_DIFFERENT, EXIT_BROKEN = 0, 1, 2
DEFAULT_TIMEOUT = 10.0
DEFAULT_DEPTH = 2
DEFAULT_SEED = 0
DEFAULT_GAMES = 6
EARLY_DEPTH = 2
"""The deepest perft from each early-game position (the run's ``--depth`` if lower)."""
EARLY_PLIES = 10
"""The early game every default run covers: the positions after each of the
first EARLY_PLIES half-moves of DEFAULT_GAMES seeded random games (both sides
playing the same game), each compared on its legal-turn set and on ``play`` for
every legal turn.  The first moves are where every game goes."""
MILESTONE_GAMES = 40
"""Seeded random games played to their end, searched for the first time each
milestone of a game happens (:func:`milestone_positions`)."""
HAND_MILESTONES = {
    "hand-skip-01": (
        "0B000/00000B/000000B/0B0A02A000B/1B0A0000B/0A0000/0000 A 3:3:6:0:2:P:a3,c2,d5,f4,g7 0:3:6:5:1:P:- 18",
        "skip",
    ),
    "hand-mandate-02": ("0220/22200/2*22000/0000000/0000B00/00000/0000A A 6:2:0:0:11:PL:- 6:3:6:0:11:P:- 34", "a1"),
    "hand-end-01": ("1B0A00/0A1000/000000/0000000/000000/00000/0000B A 5:3:6:5:1:P:- 5:3:6:0:1:P:- 20", "b2 +a2"),
    "hand-cap-04": ("0000/00000/002A2A00/002A2B2A00/002A200/00000/0000 A 2:3:6:0:7:P:- 6:3:6:0:7:P:- 14", "a1 +a1"),
    "hand-end-08": (
        "0B0B0B0A/0B0B0B0A0/0B0A00A00/0A0A00000/000000/00000/0000 A 1:3:6:0:0:P:- 0:3:6:0:0:P:- 14",
        "c3 +a1",
    ),
}
"""Milestones random games do not reach, from the hand-written vectors'
positions, each with the turn played from it: a cooldown skip (A's capture
cooldown leaves A no legal Place; no game from the start reaches one, RULES
§8), a turn with no Shape because none is legal, and the ends of a game by
takeover, Network and Strangle (random games end at the tiebreak)."""
PLAY_SAMPLE = 64
"""Legal turns compared on ``play`` per position of a positions file: every one
when there are at most this many, else a sample of this many drawn with the seed."""
QUIT_GRACE = 1.0  # seconds the engine has to exit after quit before it is killed
STDERR_TAIL = 5  # lines of the engine's stderr shown when it breaks the protocol


class EngineBroke(Exception):
    """The engine broke the protocol; the message is one line saying how."""


class EngineRefused(Exception):
    """The engine answered ``{"error": ...}``; the message is its text."""


# ------------------------------------------------------------- the child ---


class Engine:
    """An engine run as a child process, one request at a time.

    Its standard output is read by a thread into a queue, so an answer can
    be waited for with a timeout; its standard error goes to a temporary
    file, shown when it fails.  :meth:`close` stops it (``quit``, then the
    whole process group killed), and is safe to call more than once."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT):
        self.command = command
        self.timeout = timeout
        self._next_id = 0
        self._stderr = tempfile.TemporaryFile()
        self._lines: queue.Queue = queue.Queue()
        self.proc = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            start_new_session=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None  # both are pipes
        self._to_engine, self._from_engine = self.proc.stdin, self.proc.stdout
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self._from_engine:
            self._lines.put(line)
        self._lines.put(None)

    def request(self, op: str, **fields) -> dict:
        """Send one request and return the engine's answer (a JSON object
        with the request's id).  :class:`EngineRefused` for an ``error``
        answer, :class:`EngineBroke` for anything outside the protocol."""
        self._next_id += 1
        rid = self._next_id
        what = f"{op} (id {rid})"
        line = json.dumps({"id": rid, "op": op, **fields}, ensure_ascii=False) + "\n"
        try:
            self._to_engine.write(line.encode("utf-8"))
            self._to_engine.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineBroke(f"the engine exited without answering {what}{self._status()}") from None
        try:
            raw = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineBroke(f"no answer to {what} within {self.timeout:g} s") from None
        if raw is None:
            raise EngineBroke(f"the engine exited without answering {what}{self._status()}")
        try:
            answer = json.loads(raw)
        except (ValueError, RecursionError):
            raise EngineBroke(f"the answer to {what} is not JSON: {_quote(raw)}") from None
        if not isinstance(answer, dict):
            raise EngineBroke(f"the answer to {what} is not a JSON object: {_quote(raw)}")
        if answer.get("id") != rid:
            raise EngineBroke(f"the answer to {what} carries the id {json.dumps(answer.get('id'))}")
        if "error" in answer:
            raise EngineRefused(str(answer["error"]))
        return answer

    def _status(self) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return ""
        return f" (exit status {code})"

    def stderr_tail(self, lines: int = STDERR_TAIL) -> list[str]:
        """The last lines the engine wrote to its standard error."""
        try:
            self._stderr.seek(0)
            text = self._stderr.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return []
        return text.splitlines()[-lines:]

    def close(self) -> None:
        """``quit``, a short grace, then the engine's process group killed."""
        proc = self.proc
        if proc.poll() is None:
            try:
                self._to_engine.write(json.dumps({"id": self._next_id + 1, "op": "quit"}).encode() + b"\n")
                self._to_engine.flush()
            except (OSError, ValueError):
                pass
        for stream in (self._to_engine,):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        try:
            proc.wait(timeout=QUIT_GRACE)
        except subprocess.TimeoutExpired:
            pass
        _kill_group(proc)
        try:
            proc.wait(timeout=QUIT_GRACE)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that survives SIGKILL
            pass
        self._reader.join(timeout=QUIT_GRACE)
        # A process that left the engine's group (its own setsid) may still hold the pipe open: closing
        # it under the reader thread, blocked reading it, would block this process for good.
        if not self._reader.is_alive():
            try:
                self._from_engine.close()
            except (OSError, ValueError):
                pass
        self._stderr.close()


def _kill_group(proc: subprocess.Popen) -> None:
    """Kill the engine and everything it started (its own session)."""
    try:
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - no process groups (Windows)
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _quote(raw: bytes, limit: int = 80) -> str:
    text = raw.decode("utf-8", "replace").rstrip("\r\n")
    return json.dumps(text[:limit] + ("…" if len(text) > limit else ""), ensure_ascii=False)


def _value(value: object, limit: int = 80) -> str:
    """A received value as JSON, cut at ``limit`` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text[:limit] + ("…" if len(text) > limit else "")


def _field(answer: dict, what: str, key: str, ok: Callable[[object], bool], expected: str) -> object:
    """``answer[key]`` when ``ok`` holds for it; otherwise :class:`EngineBroke`
    naming the op and id (``what``), the key, what was expected and what was
    received: the value (cut), or the keys the answer has when the key is missing."""
    if key not in answer:
        keys = ", ".join(json.dumps(k) for k in answer if k != "id") or "none but id"
        raise EngineBroke(f"{what}: the answer has no key {json.dumps(key)} ({expected}); its keys: {keys}")
    value = answer[key]
    if not ok(value):
        raise EngineBroke(f"{what}: {json.dumps(key)} must be {expected}, not {_value(value)}")
    return value


# ------------------------------------------------------------- the talk ---


class _Talk:
    """The protocol's operations on an :class:`Engine`, their answers checked
    for shape (a wrong shape breaks the protocol)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.has_check = False
        self.name = ""
        self.ops: list[str] = []
        # The engine's answers, asked once a run: comparing a position's legal turns and its
        # play for every turn, then perft from it, asks the same questions again.
        self._turns: dict[str, list[str]] = {}
        self._plays: dict[tuple[str, str], str] = {}

    def hello(self) -> None:
        try:
            answer = self.engine.request("hello")
        except EngineRefused as exc:
            raise EngineBroke(f"the engine refused hello: {exc}") from None
        ops = answer.get("ops")
        if answer.get("protocol") != 1:
            raise EngineBroke(f"hello: the engine speaks protocol {json.dumps(answer.get('protocol'))}, not 1")
        if not isinstance(ops, list) or not {"legal-turns", "play"} <= set(map(str, ops)):
            raise EngineBroke(f"hello: ops {json.dumps(ops)} lack legal-turns and play, which are required")
        self.has_check = "check" in ops
        self.name = str(answer.get("name", "(no name)"))
        self.ops = [str(o) for o in ops]

    def turn_texts(self, hpn: str) -> list[str]:
        """The engine's legal turns of ``hpn``, as it wrote them (asked once a run)."""
        known = self._turns.get(hpn)
        if known is not None:
            return known
        answer = self.engine.request("legal-turns", position=hpn)
        what = f"legal-turns (id {self.engine._next_id})"
        turns = _field(
            answer,
            what,
            "turns",
            lambda v: isinstance(v, list) and all(isinstance(t, str) for t in v),
            "a list of HTN strings",
        )
        self._turns[hpn] = turns  # type: ignore[assignment]  # checked just above
        return turns  # type: ignore[return-value]  # checked just above

    def canonical(self, hpn: str, texts: list[str]) -> dict[Turn, str]:
        """The engine's turns of ``hpn`` (as :meth:`turn_texts` gave them) in
        canonical form, each with the text it wrote; a turn it lists twice
        counts once here."""
        out: dict[Turn, str] = {}
        for text in texts:
            try:
                out.setdefault(parse_htn(text), text)
            except NotationError as exc:
                raise EngineBroke(f"legal-turns of {hpn}: the turn {json.dumps(text)} does not parse: {exc}") from None
        return out

    def play(self, hpn: str, turn: str) -> str:
        """The engine's position after ``turn``, as HPN text it wrote (asked once a run)."""
        known = self._plays.get((hpn, turn))
        if known is not None:
            return known
        answer = self.engine.request("play", position=hpn, turn=turn)
        what = f"play (id {self.engine._next_id})"
        text = str(_field(answer, what, "position", lambda v: isinstance(v, str), "an HPN string"))
        self._plays[hpn, turn] = text
        return text

    def play_position(self, hpn: str, turn: str) -> Position:
        text = self.play(hpn, turn)
        try:
            return parse_hpn(text)
        except NotationError as exc:
            raise EngineBroke(
                f"play {turn} from {hpn}: the position {json.dumps(text)} does not parse: {exc}"
            ) from None

    def check(self, hpn: str, turn: str, history: list[str] | None) -> tuple[bool, list[str]]:
        answer = self.engine.request("check", position=hpn, turn=turn, history=history)
        what = f"check (id {self.engine._next_id})"
        legal = _field(answer, what, "legal", lambda v: isinstance(v, bool), "a boolean")
        violations = _field(
            answer,
            what,
            "violations",
            lambda v: isinstance(v, list) and all(isinstance(r, str) for r in v),
            "a list of rule ids",
        )
        return bool(legal), list(violations)  # type: ignore[call-overload]  # checked just above


# ---------------------------------------------------------- the report ---


@dataclass(frozen=True)
class OwnPosition:
    """A position of the author's own file (``--positions-file``): its name
    (after ``#``, else ``line N``), its HPN and its line."""

    name: str
    hpn: str
    line: int


class BadPositions(ValueError):
    """A positions file that cannot be used; the message names the line."""


def read_positions(text: str, label: str) -> tuple[OwnPosition, ...]:
    """The positions of a positions file: one HPN per line, an optional name
    after ``#``; blank lines and lines starting with ``#`` are skipped.  A line
    that is not a consistent HPN position is :class:`BadPositions` naming it.

    >>> from checker.notation import START_HPN
    >>> [p.name for p in read_positions("# mine\\n\\n" + START_HPN + " # the start\\n" + START_HPN, "F")]
    ['the start', 'line 4']
    """
    found = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        hpn, _, name = line.partition("#")
        try:
            position = parse_hpn(hpn.strip())
        except NotationError as exc:
            raise BadPositions(f"{label} line {n}: not an HPN position: {exc}") from None
        problems = position.problems()
        if problems:
            rules = ", ".join(dict.fromkeys(p.rule for p in problems))
            raise BadPositions(f"{label} line {n}: not a consistent position ({rules})")
        found.append(OwnPosition(name.strip() or f"line {n}", hpn.strip(), n))
    return tuple(found)


def early_positions(games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED) -> list[OwnPosition]:
    """The start and the positions after each of the first :data:`EARLY_PLIES`
    half-moves of ``games`` random games seeded from ``seed``, once each.

    >>> len(early_positions(1)), early_positions(1)[0].name
    (11, 'the start')
    """
    seen: dict[str, OwnPosition] = {}
    start = Position.start()
    seen[position_to_hpn(start)] = OwnPosition("the start", position_to_hpn(start), 0)
    for g in range(games):
        rng = random.Random(f"{seed} {g}")
        pos = start
        for ply in range(1, EARLY_PLIES + 1):
            turns = legal_turns(pos)
            if not turns:
                break
            pos = after(pos, rng.choice(turns))
            hpn = position_to_hpn(pos)
            seen.setdefault(hpn, OwnPosition(f"early game {g + 1}, half-move {ply}", hpn, 0))
    return list(seen.values())


_FIRST_CAPTURE = {
    CaptureKind.MOVE: "the first Move capture",
    CaptureKind.ENCIRCLEMENT: "the first capture by encirclement",
    CaptureKind.ECHO: "the first capture by Echo-Capture",
}


def _milestones(pos: Position, turn: Turn, outcome) -> list[str]:
    """What happens for the first time in a game when ``turn`` is played."""
    me, new = pos.to_move, outcome.position
    found = []
    if isinstance(turn.project, Move):
        found.append("the first Move")
    if isinstance(turn.project, Skip):
        found.append("a cooldown skip")
    elif turn.shape is None:
        found.append("a turn without a Shape (none is legal)")
    if turn.shape is not None and turn.shape.kind is ShapeKind.LOWER:
        found.append("the first lower")
    if turn.shape is not None and new.tiers[turn.shape.cell] == 2:
        found.append("the first raise to tier 2")
    if turn.echo is not None:
        found.append("the first Echo-Lock" if turn.echo.kind is EchoKind.LOCK else "the first Echo-Capture")
    if new.player(me).captures > pos.player(me).captures:
        found.append(f"{me}'s first capture")
    found += [_FIRST_CAPTURE[e.kind] for e in outcome.events if e.kind is not None]
    found += [f"a capture cooldown for {who}" for who in ("A", "B") if new.player(who).cooldown]
    if new.player(me).reserve == 0:
        found.append("an empty reserve")
    if new.mover.charges == 0 and not outcome.game.over:
        found.append(f"no Echo charge left for {new.to_move} to move")
    if outcome.game.over:
        found.append(f"the end of a game ({outcome.game.reason})")
    return found


def milestone_positions(games: int = MILESTONE_GAMES, seed: int = DEFAULT_SEED) -> list[OwnPosition]:
    """The positions just before and just after the first time each milestone
    of a game happens (the first Move, lower, raise to tier 2, Echo-Lock,
    Echo-Capture, each player's first capture and capture cooldown, the first
    capture of each kind, an empty reserve, no Echo charge left, the end of a
    game) in ``games`` random games seeded from ``seed`` and played to their
    end; then the milestones those games do not reach (a cooldown skip, a
    turn without a Shape, the other ends of a game) from hand-written
    vectors' positions (:data:`HAND_MILESTONES`).

    >>> names = [p.name for p in milestone_positions()]
    >>> names[names.index("before a cooldown skip (vector hand-skip-01)") - 1]
    'after no Echo charge left for B to move (game 8, half-move 51)'

    """
    seen: dict[str, OwnPosition] = {}
    met: set[str] = set()

    def keep(pos: Position, turn: Turn, where: str) -> Position:
        outcome = apply(pos, turn)
        new = [what for what in _milestones(pos, turn, outcome) if what not in met]
        if new:
            met.update(new)
            what = ", ".join(new)
            for name, p in ((f"before {what} ({where})", pos), (f"after {what} ({where})", outcome.position)):
                hpn = position_to_hpn(p)
                seen.setdefault(hpn, OwnPosition(name, hpn, 0))
        return outcome.position

    for g in range(games):
        rng = random.Random(f"{seed} milestones {g}")
        pos = Position.start()
        while turns := legal_turns(pos):
            turn = rng.choice(turns)
            pos = keep(pos, turn, f"game {g + 1}, half-move {pos.half_moves + 1}")
    for name, (hpn, htn) in HAND_MILESTONES.items():
        keep(parse_hpn(hpn), parse_htn(htn), f"vector {name}")
    return list(seen.values())


@dataclass
class Options:
    """What ``conform`` runs: ``depth`` 0 runs no perft; ``vectors`` and
    ``positions`` are shell-style patterns on vector ids and table names;
    ``first`` stops at the first difference."""

    command: str
    depth: int = DEFAULT_DEPTH
    timeout: float = DEFAULT_TIMEOUT
    vectors: str | None = "*"
    positions: str = "*"
    first: bool = False
    own: tuple[OwnPosition, ...] = ()
    seed: int = DEFAULT_SEED
    games: int = DEFAULT_GAMES
    progress: bool = False
    progress_delay: float = 2.0  # seconds before the bar shows: a short run on a terminal shows none


@dataclass
class _Report:
    out: Callable[[str], None]
    differences: int = 0
    first: bool = False
    bar: Any = None  # a tqdm bar (disabled unless asked for), advanced a step per vector or position

    def differ(self, text: str) -> None:
        self.differences += 1
        self.out(text)

    def step(self, what: str) -> None:
        if self.bar is not None:
            self.bar.set_description_str(what, refresh=False)
            self.bar.update()

    @property
    def stop(self) -> bool:
        return self.first and self.differences > 0


def _set_text(items: Iterable[str]) -> str:
    items = sorted(items)
    return ", ".join(items) if items else "(none)"


# ---------------------------------------------------------- the vectors ---


def _vectors(talk: _Talk, pattern: str, report: _Report) -> None:
    chosen = [v for v in vec.read_vectors() if fnmatch.fnmatchcase(v["id"], pattern)]
    legal_lists: dict[str, set[Turn]] = {}
    agree = played = 0
    for v in chosen:
        report.step("vectors")
        before = report.differences
        turn = parse_htn(v["turn"])
        try:
            if talk.has_check:
                legal, violations = talk.check(v["position"], v["turn"], v["history"])
                if legal != v["legal"]:
                    report.differ(
                        f"vector {v['id']}: legal: expected {json.dumps(v['legal'])}, "
                        f"got {json.dumps(legal)} ({v['turn']} from {v['position']})"
                    )
                elif set(violations) != set(v["violations"]):
                    want, got = set(v["violations"]), set(violations)
                    report.differ(
                        f"vector {v['id']}: violations: expected {_set_text(want)}, got {_set_text(got)} "
                        f"(missing: {_set_text(want - got)}; extra: {_set_text(got - want)})"
                    )
            else:
                if v["position"] not in legal_lists:
                    texts = talk.turn_texts(v["position"])
                    legal_lists[v["position"]] = set(talk.canonical(v["position"], texts))
                legal = turn in legal_lists[v["position"]]
                if legal != v["legal"]:
                    report.differ(
                        f"vector {v['id']}: legal: expected {json.dumps(v['legal'])}, got "
                        f"{json.dumps(legal)} (membership in legal-turns; {v['turn']} from "
                        f"{v['position']})"
                    )
            if v["legal"] and legal:
                played += 1
                after = talk.play_position(v["position"], v["turn"])
                if after != parse_hpn(v["after"]):
                    report.differ(
                        f"vector {v['id']}: play {v['turn']}: expected {v['after']}, got {position_to_hpn(after)}"
                    )
        except EngineRefused as exc:
            report.differ(f"vector {v['id']}: the engine refused: {exc}")
        if report.differences == before:
            agree += 1
        if report.stop:
            break
    how = (
        "legal and violations compared with check"
        if talk.has_check
        else "legal as membership in legal-turns (the engine has no check)"
    )
    report.out(
        f"vectors: {agree} of {len(chosen)} agree ({how}; the position after play compared for {played} legal turns)"
    )


# ------------------------------------------------------------- perft ------


def _engine_counts(talk: _Talk, hpn: str, depth: int) -> list[int]:
    """The engine's perft(1) … perft(depth) of ``hpn``, from its own
    ``legal-turns`` and ``play``: the number of turns it lists (a turn listed
    twice counts twice), summed over the positions it reaches."""
    counts = [0] * depth

    def walk(h: str, ply: int) -> None:
        texts = talk.turn_texts(h)
        counts[ply] += len(texts)
        if ply + 1 < depth:
            for t in sorted(set(texts)):
                walk(talk.play(h, t), ply + 1)

    walk(hpn, 0)
    return counts


def _engine_nodes(talk: _Talk, hpn: str, depth: int) -> int:
    return 1 if depth == 0 else _engine_counts(talk, hpn, depth)[-1]


def _turn_set_lines(pos: Position, hpn: str, theirs: dict[Turn, str], mine: dict[Turn, str]) -> list[str]:
    """What differs between the engine's legal turns and the checker's, and
    the command that shows the checker's again."""
    missing = [mine[t] for t in mine if t not in theirs]
    extra = [turn_to_htn(t, pos) for t in theirs if t not in mine]
    return [
        f"    missing (the engine does not list): {_set_text(missing)}",
        f"    extra (the engine lists, the checker does not): {_set_text(extra)}",
        f"    again: hexodic-check legal {shlex.quote(hpn)}",
    ]


def _listed_twice(pos: Position, texts: list[str]) -> str:
    """Each turn the engine lists more than once (in one spelling or several),
    named with how it wrote it: ``c3 +d4 twice (as "c3 +d4" and "C3 +D4")``;
    empty when it lists each once.  The texts parse (:meth:`_Talk.canonical`
    read them first)."""
    spellings: dict[Turn, list[str]] = {}
    for text in texts:
        spellings.setdefault(parse_htn(text), []).append(text)
    times = {2: "twice", 3: "three times"}
    return "; ".join(
        f"{turn_to_htn(turn, pos)} {times.get(len(ss), f'{len(ss)} times')} "
        f"(as {', '.join(json.dumps(t) for t in ss[:-1])} and {json.dumps(ss[-1])})"
        for turn, ss in spellings.items()
        if len(ss) > 1
    )


def _check_again(hpn: str, htn: str) -> str:
    """The command that shows the checker's verdict (and position after) of a turn."""
    return f"    again: hexodic-check check {shlex.quote(hpn)} {shlex.quote(htn)}"


def _descend(talk: _Talk, pos: Position, depth: int, path: list[str], report: _Report) -> None:
    """The divide descent from ``pos`` (whose perft(depth) differs): print
    the first position whose legal-turn sets differ, or where ``play``
    differs, with the way there."""
    hpn = position_to_hpn(pos)
    where = f"after {', '.join(path)}" if path else "from the table position"
    texts = talk.turn_texts(hpn)
    theirs = talk.canonical(hpn, texts)
    mine = {t: turn_to_htn(t, pos) for t in legal_turns(pos)}
    if set(theirs) != set(mine):
        report.out(f"  the legal turns differ {where}, at {shlex.quote(hpn)}")
        for line in _turn_set_lines(pos, hpn, theirs, mine):
            report.out(line)
        return
    twice = _listed_twice(pos, texts)
    if twice:
        report.out(f"  {where}, at {shlex.quote(hpn)}, the engine lists {twice}; the turn sets agree")
        return
    for turn, nodes in perft(pos, depth, divide=True):
        child = after(pos, turn)
        got = talk.play_position(hpn, theirs[turn])
        if got != child:
            report.out(
                f"  play {mine[turn]} {where}, at {shlex.quote(hpn)}: expected "
                f"{shlex.quote(position_to_hpn(child))}, got {shlex.quote(position_to_hpn(got))}"
            )
            report.out(_check_again(hpn, mine[turn]))
            return
        engine_nodes = _engine_nodes(talk, position_to_hpn(got), depth - 1)
        if engine_nodes != nodes:
            report.out(f"  divide {where}, depth {depth}: {mine[turn]}: engine {engine_nodes:,}, checker {nodes:,}")
            report.out(f"    again: hexodic-check perft {shlex.quote(hpn)} --depth {depth} --divide")
            _descend(talk, child, depth - 1, path + [mine[turn]], report)
            return
    report.out(
        f"  divide {where}, depth {depth}: every turn's count agrees, yet the totals differ; compare the "
        "engine's answers by hand"
    )


def _line(own: OwnPosition) -> str:
    return f" (line {own.line})" if own.line else ""


def _own_position(
    talk: _Talk, own: OwnPosition, options: Options, report: _Report, play_all: bool = False, depth: int | None = None
) -> None:
    """A position of the author's file or of the early game: its legal-turn
    set, ``play`` for each legal turn (or a seeded sample of
    :data:`PLAY_SAMPLE`), then perft to ``depth`` (default the run's) with
    the divide descent, as a table position gets.  The early game
    (``play_all``) prints only its differences."""
    depth = options.depth if depth is None else depth
    pos = parse_hpn(own.hpn)
    hpn = position_to_hpn(pos)
    texts = talk.turn_texts(hpn)
    theirs = talk.canonical(hpn, texts)
    mine = {t: turn_to_htn(t, pos) for t in legal_turns(pos)}
    if set(theirs) != set(mine):
        report.differ(f"position {own.name}{_line(own)}: the legal turns differ at {shlex.quote(hpn)}")
        for line in _turn_set_lines(pos, hpn, theirs, mine):
            report.out(line)
        return
    twice = _listed_twice(pos, texts)
    if twice:
        report.differ(f"position {own.name}{_line(own)}: the engine lists {twice} at {shlex.quote(hpn)}")
        return
    turns = list(mine)
    if len(turns) > PLAY_SAMPLE and not play_all:
        turns = random.Random(f"{options.seed} {hpn}").sample(turns, PLAY_SAMPLE)
    for turn in turns:
        got = talk.play_position(hpn, theirs[turn])
        want = after(pos, turn)
        if got != want:
            report.differ(
                f"position {own.name}{_line(own)}: play {mine[turn]} at {shlex.quote(hpn)}: expected "
                f"{shlex.quote(position_to_hpn(want))}, got {shlex.quote(position_to_hpn(got))}"
            )
            report.out(_check_again(hpn, mine[turn]))
            return
    if not play_all:
        played = f"play for {len(turns)} of {len(mine):,} legal turns" if len(turns) < len(mine) else "play for each"
        report.out(f"position {own.name}: {len(mine):,} legal turns agree; {played}")
    if depth > 1:
        counts = tuple(perft(pos, d) for d in range(1, depth + 1))
        _perft(talk, [TableEntry(own.name, "", hpn, counts)], depth, report, quiet=play_all)


def _perft(
    talk: _Talk, entries: list[TableEntry], depth: int, report: _Report, quiet: bool = False, table: bool = False
) -> None:
    for e in entries:
        if table:
            report.step("perft")
        d = min(depth, len(e.nodes))
        counts = _engine_counts(talk, e.hpn, d)
        want = list(e.nodes[:d])
        if counts == want:
            if quiet:
                continue
            report.out(
                f"perft {e.name}: {', '.join(f'{n:,}' for n in want)} agree (depth 1-{d})"
                if d > 1
                else f"perft {e.name}: {want[0]:,} agrees (depth 1)"
            )
            continue
        first = next(i for i in range(d) if counts[i] != want[i])
        report.differ(f"perft {e.name}: depth {first + 1}: engine {counts[first]:,}, checker {want[first]:,}")
        try:
            _descend(talk, e.position, first + 1, [], report)
        except EngineRefused as exc:
            report.out(f"  the engine refused during the descent: {exc}")
        if report.stop:
            return


# --------------------------------------------------------------- run ------


def run(options: Options, out: Callable[[str], None] | None = None, err: Callable[[str], None] | None = None) -> int:
    """Drive the engine; print the findings with ``out`` (a line at a time)
    and return the exit status.  The engine is stopped before returning."""
    out = out or (lambda line: print(line, flush=True))
    err = err or (lambda line: print(line, file=sys.stderr, flush=True))
    entries = [e for e in load_table() if fnmatch.fnmatchcase(e.name, options.positions)]
    early = early_positions(options.games, options.seed) if options.games > 0 else []
    if early:
        known = {p.hpn for p in early}
        early += [p for p in milestone_positions(seed=options.seed) if p.hpn not in known]
    own = [p for p in options.own if fnmatch.fnmatchcase(p.name, options.positions)]
    vectors = (
        0 if options.vectors is None else sum(fnmatch.fnmatchcase(v["id"], options.vectors) for v in vec.read_vectors())
    )
    bar = tqdm(
        total=vectors + len(early) + (len(entries) if options.depth > 0 else 0) + len(own),
        unit="step",
        file=sys.stderr,
        disable=not options.progress,
        delay=options.progress_delay,
        leave=False,
        dynamic_ncols=True,
    )

    def out_beside_the_bar(line: str) -> None:
        with tqdm.external_write_mode(file=sys.stderr):
            out(line)

    report = _Report(out_beside_the_bar, first=options.first, bar=bar)
    try:
        engine = Engine(options.command, options.timeout)
    except OSError as exc:
        bar.close()
        err(f"conform: the engine could not be started: {exc}")
        return EXIT_BROKEN
    talk = _Talk(engine)
    try:
        talk.hello()
        out(f"engine: {talk.name} (protocol 1; ops: {', '.join(talk.ops)})")
        if options.vectors is not None:
            _vectors(talk, options.vectors, report)
        for p in early:
            if report.stop:
                break
            report.step("early game")
            _own_position(talk, p, options, report, play_all=True, depth=min(options.depth, EARLY_DEPTH))
        if early and not report.differences:
            perft_words = f", perft to depth {min(options.depth, EARLY_DEPTH)}" if options.depth > 1 else ""
            out(
                f"early game: {len(early)} positions of {options.games} seeded games and of the milestones agree "
                f"(legal turns, play for every turn{perft_words})"
            )
        if options.depth > 0 and not report.stop:
            _perft(talk, entries, options.depth, report, table=True)
        for p in own:
            if report.stop:
                break
            report.step("your positions")
            _own_position(talk, p, options, report)
    except EngineBroke as exc:
        err(f"conform: the engine broke the protocol: {exc}")
        for line in engine.stderr_tail():
            err(f"  engine stderr: {line}")
        return EXIT_BROKEN
    except EngineRefused as exc:  # outside a vector or the descent: refusing the table's positions
        report.differ(f"the engine refused: {exc}")
    finally:
        bar.close()
        engine.close()
    if report.differences:
        out(f"conform: {report.differences} difference{'s' if report.differences != 1 else ''} found")
        return EXIT_DIFFERENT
    parts = []
    if options.vectors is not None:
        parts.append("the vectors")
    if options.depth > 0:
        parts.append(f"perft over {len(entries)} table positions to depth {options.depth}")
    if early:
        parts.append(f"the early game of {options.games} seeded games")
    if own:
        parts.append(f"{len(own)} position{'s' if len(own) != 1 else ''} of your own")
    out(f"conform: the engine agrees with the checker ({' and '.join(parts) or 'hello only'})")
    return EXIT_AGREE
