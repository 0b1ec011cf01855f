"""Checking a turn: a check per rule id, in words, composed into a verdict.

:func:`check` judges a turn against every rule of RULES §9 that concerns it,
in turn order, and says why.  Each rule is decided by its function in
:mod:`checker.rules` (the one the generator, the quick turn test and perft's
count use too) on the board as it stands at the step.  The words of each
check are the rule's, in the catalogue (:data:`checker.catalogue.WORDS`: for
each outcome, what the rule requires and what the board shows); this module
gathers the facts of the board that fill them.

>>> from checker.position import Position
>>> from checker.notation import parse_htn
>>> v = check(Position.start(), parse_htn("d4 +c3"))
>>> v.legal, v.violations
(False, ['place.opening-restriction'])
>>> v.summary
"Illegal: A's first Place must be at least 1 step from the centre, and d4 is the centre."
>>> check(Position.start(), parse_htn("c3 +d4")).legal
True

Later steps are judged even when an earlier one fails (D-14): each declared
step's physical effect is applied where it can be, and the Shape and Echo
are judged on the board as it then stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from checker import board, rules
from checker.board import BIT, CENTRE, NEIGHBOURS, STEPS, Cell
from checker.catalogue import (
    RULE_IDS,
    RULES,
    STEP_ECHO,
    STEP_GAME,
    STEP_MOVE,
    STEP_PLACE,
    STEP_POSITION,
    STEP_SHAPE,
    WORDS,
)
from checker.ending import GameResult, describe_game_over, game_over_reason, game_status
from checker.generate import legal_turns, shapes_of
from checker.notation import project_to_htn, shape_to_htn, turn_to_htn
from checker.play import CaptureKind, EventType, Outcome, apply
from checker.position import MAX_HALF_MOVES, Bits, Position, Problem, other
from checker.projects import place_cells, skip_applies
from checker.turn import CAPTURE, LOWER, RAISE, Move, Place, Shape, Skip, Turn
from checker.wording import and_list, fill, plural

__all__ = [
    "Status",
    "PASSED",
    "FAILED",
    "NOT_APPLICABLE",
    "Check",
    "compose",
    "Verdict",
    "InconsistentPosition",
    "check",
    "consistency_checks",
    "Validation",
    "validate",
]


class Status(StrEnum):
    """A check's status.  A ``StrEnum``: equal to, and written as, its string."""

    PASSED = "passed"
    FAILED = "failed"
    NOT_APPLICABLE = "not_applicable"


PASSED, FAILED, NOT_APPLICABLE = Status.PASSED, Status.FAILED, Status.NOT_APPLICABLE
N = board.name
NAMES = board.NAMES


class Check(NamedTuple):
    """One rule's judgement of a turn (a named tuple: cheap to make, a verdict
    has a dozen or more).

    A check made by :func:`check` keeps the parts its message is composed of
    (:func:`compose`): ``requires``, what the rule requires (empty when the
    message states only the board), and ``shows``, what the board shows.  A
    ``position.*`` check carries its :class:`~checker.position.Problem`'s
    message whole, with no parts."""

    rule: str
    step: str
    status: Status
    cells: tuple[str, ...]
    message: str
    requires: str = ""
    shows: str = ""

    @property
    def more(self) -> str:
        return RULES[self.rule].more

    @property
    def rule_url(self) -> str:
        """The service's own text of the rule: ``/rules#<id>``."""
        return RULES[self.rule].rule_url

    @property
    def failed(self) -> bool:
        return self.status == FAILED

    @property
    def clause(self) -> str:
        """The parts as one clause, for a summary: "<requires>, and <shows>"."""
        return f"{self.requires}, and {self.shows}" if self.requires else self.shows


def compose(requires: str, shows: str) -> str:
    """A check's message: "<requires>; <shows>." (or "<shows>.")."""
    return f"{requires}; {shows}." if requires else f"{shows}."


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "is this turn legal, and why?".

    ``explanation`` says why, as a sentence: for an illegal turn the first
    failed check's :attr:`Check.clause` (and the ids of any further failed
    checks), for a legal one what the turn does.  ``summary`` puts "Legal: "
    or "Illegal: " before it.  ``declared`` is the turn judged."""

    legal: bool
    turn: str  # the turn in canonical HTN
    mover: str
    explanation: str
    checks: tuple[Check, ...]
    outcome: Outcome | None  # present exactly when the turn is legal
    declared: Turn

    @property
    def summary(self) -> str:
        return f"{'Legal' if self.legal else 'Illegal'}: {self.explanation}"

    @property
    def violations(self) -> list[str]:
        return [c.rule for c in self.checks if c.status == FAILED]


class InconsistentPosition(ValueError):
    """The position breaks conditions of D-3; ``problems`` lists them all."""

    def __init__(self, problems: list[Problem]):
        super().__init__("the position is not consistent: " + "; ".join(p.message for p in problems))
        self.problems = problems


def _list(cells: Iterable[Cell], last: str = "and") -> str:
    return and_list(board.names(cells), last)


class _Judge:
    """Judges one turn.  Holds the board as it stands after each step."""

    def __init__(self, pos: Position, turn: Turn, history: Sequence[Position] | None = None):
        self.pos = pos
        self.turn = turn
        self.history = history
        self.me = pos.to_move
        self.enemy = other(self.me)
        self.m = pos.mover
        self.stones = list(pos.stones)
        self.tiers = list(pos.tiers)
        self.locked = pos.locked
        self._bits = pos.bits  # the same board as masks, kept up to date with the lists
        self.project_step = STEP_PLACE if self.m.reserve > 0 else STEP_MOVE  # D-15
        self.shaped: Shape | None = None  # this turn's Shape, once it has changed a tier
        self.checks: list[Check] = []
        self.cooldown = _list(self.m.cooldown) if self.m.cooldown else ""

    def say(
        self, rule: str, step: str, ok: bool | None, cells: Iterable[Cell] = (), how: str = "", **facts: object
    ) -> None:
        """Record a check in its rule's words (:data:`~checker.catalogue.WORDS`) for the outcome
        (``how`` names a variant), filled with the facts of the board."""
        status = NOT_APPLICABLE if ok is None else PASSED if ok else FAILED
        requires, shows = WORDS[rule].of(f"{status}:{how}" if how else status)
        facts.update(me=self.me, enemy=self.enemy, cooldown=self.cooldown)
        requires, shows = fill(requires, **facts), fill(shows, **facts)
        names = tuple([NAMES[c] for c in cells])
        self.checks.append(Check(rule, step, status, names, compose(requires, shows), requires, shows))

    def phrase(self, rule: str, key: str, **facts: object) -> str:
        """A part of a check's words (the rule's phrase ``key``), filled with the facts."""
        return fill(WORDS[rule].shows[key], me=self.me, **facts)

    def bits(self) -> Bits:
        """The board as it stands now, as masks: what the rules (:mod:`checker.rules`) decide on."""
        return self._bits

    # ------------------------------------------- facts after earlier steps --

    def _holds(self, c: Cell) -> str:
        """What ``c`` holds now: "c3 is empty", "c3 holds A's own stone" (the mover's), "c3 holds B's stone"."""
        s = self.stones[c]
        if s is None:
            return f"{N(c)} is empty"
        return f"{N(c)} holds {s}'s own stone" if s == self.me else f"{N(c)} holds {s}'s stone"

    def _after_project(self, c: Cell) -> str:
        """ "after the Place on d4, " when this turn's Project changed ``c``'s stone (the board the
        player sees still shows it as it was); otherwise nothing."""
        if self.stones[c] == self.pos.stones[c]:
            return ""
        p = self.turn.project
        step = f"the Place on {N(p.cell)}" if isinstance(p, Place) else f"the Move {project_to_htn(p, self.pos)}"
        return f"after {step}, "

    def _tier(self, c: Cell) -> str:
        """ "c3 is Tier 1", or "after the Shape -c3, c3 is Tier 1" when this turn's Shape changed it."""
        fact = f"{N(c)} is Tier {self.tiers[c]}"
        s = self.shaped
        return f"after the Shape {shape_to_htn(s)}, {fact}" if s is not None and s.cell == c else fact

    # ------------------------------------------------------------ game --

    def game_over(self, ended: GameResult | None = None) -> None:
        reason = game_over_reason(self.pos)
        if reason is None and ended is not None and ended.over:  # a repetition or threefold, known to a replay
            how = "a threefold repetition" if ended.reason == "threefold" else f"a {ended.reason}"
            won = "a draw" if ended.result == "draw" else f"{ended.result} wins"
            self.say("game.over", STEP_GAME, False, how="ended", ended=how, won=won)
        elif reason is None:
            self.say("game.over", STEP_GAME, True, half_moves=self.pos.half_moves, limit=MAX_HALF_MOVES)
        else:
            self.say("game.over", STEP_GAME, False, reason=describe_game_over(self.pos, reason))

    # --------------------------------------------------------- project --

    def project(self) -> None:
        p = self.turn.project
        skip = skip_applies(self.pos)
        if isinstance(p, Skip):
            self.project_skip_declared(skip)
            return
        if isinstance(p, Place):
            self.place(p.cell)
        else:
            self.move(p.src, p.dst, skip)
        self.project_skip_not_declared(skip)

    def project_skip_declared(self, skip: bool) -> None:
        m, cd = self.m, sorted(self.m.cooldown)
        free = place_cells(self.pos) if m.reserve >= 1 and m.cooldown and not skip else []
        if skip:
            how = "skipped"
        elif m.reserve < 1:
            how = "reserve"
        else:
            how = "no-cooldown" if not m.cooldown else "free" if free else "no-cell"
        self.say("project.skip", self.project_step, skip, cd, how=how, free=len(free), first=free and N(free[0]))

    def project_skip_not_declared(self, skip: bool) -> None:
        m, cd = self.m, sorted(self.m.cooldown)
        ok = False if skip else None if not m.cooldown else True
        free = len(place_cells(self.pos)) if ok else 0
        self.say("project.skip", self.project_step, ok, cd, how="must" if skip else "", free=free)

    def place(self, c: Cell) -> None:
        me, m, step, stones = self.me, self.m, self.project_step, self.stones
        bits, name = self.bits(), N(c)
        self.say("place.reserve", step, rules.place_reserve(m), reserve=m.reserve)
        self.say("place.empty", step, bool(BIT[c] & rules.place_empty(bits)), [c], c=name, holds=self._holds(c))
        self.say("place.unlocked", step, bool(BIT[c] & rules.place_unlocked(bits)), [c], c=name)
        opening = None if m.placed else bool(BIT[c] & rules.place_opening_restriction(m))
        self.say(
            "place.opening-restriction", step, opening, [] if opening is None else [c], c=name, steps=STEPS[c][CENTRE]
        )
        if not m.cooldown:
            self.say("place.cooldown", step, None)
        else:
            cd = sorted(m.cooldown)
            close = [k for k in cd if STEPS[c][k] < 2]
            ok = bool(BIT[c] & rules.place_cooldown(m))
            near = ", ".join(
                f"{plural(STEPS[c][k], 'step')} from {N(k)}" if STEPS[c][k] else f"on {N(k)} itself" for k in close
            )
            far = ", ".join(f"{STEPS[c][k]} from {N(k)}" for k in cd)
            self.say("place.cooldown", step, ok, [c, *(cd if ok else close)], c=name, near=near, far=far)
        if stones[c] is None:  # D-14: a Place puts the stone only on an empty cell
            stones[c] = me
            self._bits = rules.placed(bits, me, c)

    def move(self, a: Cell, b: Cell, skip: bool) -> None:
        me, m, step, stones, tiers = self.me, self.m, self.project_step, self.stones, self.tiers
        bits = self.bits()
        ok = rules.move_reserve_empty(m)
        self.say("move.reserve-empty", step, ok, how="skip" if skip and not ok else "", reserve=m.reserve)
        own = bool(BIT[a] & rules.move_own_stone(bits, me))
        self.say("move.own-stone", step, own, [a], a=N(a), holds=self._holds(a))
        d = STEPS[a][b]
        ok = bool(BIT[b] & rules.move_adjacent(a))
        self.say("move.adjacent", step, ok, [a, b], how="same" if d == 0 else "", a=N(a), b=N(b), d=d)
        sb = stones[b]
        note = self.phrase("move.destination", "note:locked", b=N(b)) if self.locked[b] else ""
        ok = bool(BIT[b] & rules.move_destination(bits, me, a))
        how = "" if sb is None else "own" if sb == me and not ok else "capture" if ok else ""
        cells = [b] if sb is None or how == "own" else [a, b]
        self.say(
            "move.destination", step, ok, cells, how=how, a=N(a), b=N(b), held=sb, ta=tiers[a], tb=tiers[b], note=note
        )
        if own and sb != me:  # D-14: the Move happens, removing any enemy stone there
            stones[a] = None
            stones[b] = me
            self._bits = rules.moved(bits, me, a, b)

    # ----------------------------------------------------------- shape --

    def shape(self) -> None:
        turn = self.turn
        landing = turn.landing
        if landing is None:  # a skip: no landing cell
            self.shape_on_skip(turn.shape)
        elif turn.shape is None:
            self.shape_left_out(landing)
        else:
            self.shape_given(turn.shape, landing)

    def shape_on_skip(self, s: Shape | None) -> None:
        self.say("shape.skipped", STEP_SHAPE, s is None, [] if s is None else [s.cell], shape=s and shape_to_htn(s))

    def shape_left_out(self, landing: Cell) -> None:
        me, m, tiers, stones = self.me, self.m, self.tiers, self.stones
        # the rules legal_turns decides the mandate with, on the board after the Project
        bits = self.bits()
        raises, lowers = rules.shape_cells(bits, m, landing, RAISE), rules.shape_cells(bits, m, landing, LOWER)
        mandate = rules.mandating_cells(bits, me, raises | lowers)
        mandating = shapes_of(raises & mandate, lowers & mandate)
        if mandating:
            first = min(mandating, key=lambda sh: (STEPS[landing][sh.cell], sh.cell))
            c, held, d, n = first.cell, stones[first.cell], STEPS[landing][first.cell], len(mandating)
            facts = {"landing": N(landing), "d": d, "held": held, "n": n}
            where = self.phrase("shape.mandate", "where:landing" if c == landing else "where", **facts)
            occupant = self.phrase("shape.mandate", "occupant:empty" if held is None else "occupant", **facts)
            more = self.phrase("shape.mandate", "more", **facts) if n > 1 else ""
            shape = shape_to_htn(first)
            self.say(
                "shape.mandate",
                STEP_SHAPE,
                False,
                [c],
                c=N(c),
                shape=shape,
                where=where,
                t=tiers[c],
                occupant=occupant,
                more=more,
            )
        else:
            near = board.WITHIN_2[landing]
            blockers = self._shape_blockers(near)
            self.say(
                "shape.mandate", STEP_SHAPE, True, [landing], near=len(near), landing=N(landing), blockers=blockers
            )

    def _shape_blockers(self, near: Sequence[Cell]) -> str:
        """Why no cell of ``near`` (within 2 steps of the landing cell) takes a Shape that counts for the
        mandate: the cells by reason (the mover's own stone; locked; Tier 2 with no lowers left)."""
        me, stones, tiers, locked = self.me, self.stones, self.tiers, self.locked
        own = [c for c in near if stones[c] == me]
        shut = [c for c in near if stones[c] != me and locked[c]]
        flat = [c for c in near if stones[c] != me and not locked[c] and tiers[c] == 2 and self.m.lowers_left == 0]
        parts = [
            self.phrase("shape.mandate", key if len(cells) > 1 else f"{key}:one", cells=_list(cells))
            for key, cells in (("own", own), ("shut", shut), ("flat", flat))
            if cells
        ]
        return "; ".join(parts)

    def shape_given(self, s: Shape, landing: Cell) -> None:
        m, tiers, locked = self.m, self.tiers, self.locked
        bits = self.bits()
        c, name = s.cell, N(s.cell)
        d = STEPS[landing][c]
        ok = bool(BIT[c] & rules.shape_range(landing))
        self.say(
            "shape.range",
            STEP_SHAPE,
            ok,
            [c, landing],
            how="landing" if ok and d == 0 else "",
            c=name,
            d=d,
            landing=N(landing),
        )
        self.say("shape.unlocked", STEP_SHAPE, bool(BIT[c] & rules.shape_unlocked(bits)), [c], c=name)
        t = tiers[c]
        raise_ = s.kind == RAISE
        tier_ok = bool(BIT[c] & rules.shape_tier_limit(s.kind, bits.tier1, bits.tier2))
        after = t + 1 if raise_ else t - 1
        self.say(
            "shape.tier-limit",
            STEP_SHAPE,
            tier_ok,
            [c],
            how="" if tier_ok else s.kind,
            c=name,
            t=t,
            kind=s.kind,
            after=after,
        )
        budget = None if raise_ else rules.shape_lowering_budget(LOWER, m)
        self.say("shape.lowering-budget", STEP_SHAPE, budget, lowers=m.lowers_left, left=m.lowers_left - 1)
        if not locked[c] and tier_ok:  # D-14: the Shape changes the tier when it can
            tiers[c] = after
            self.shaped = s
            t1, t2 = rules.shaped_by(bits.tier1, bits.tier2, s)
            self._bits = bits._replace(tier1=t1, tier2=t2)

    # ------------------------------------------------------------ echo --

    def echo(self) -> None:
        e, m = self.turn.echo, self.m
        ok = None if e is None else rules.echo_charge(m)
        self.say("echo.charge", STEP_ECHO, ok, charges=m.charges, left=m.charges - 1)
        if e is None:
            return
        if e.kind == CAPTURE:
            self.echo_capture(e.cell)
        else:
            self.echo_lock(e.cell)

    def echo_capture(self, c: Cell) -> None:
        # One check per rule, each decided by checker.rules, which the generator and the count use too.
        me, stones = self.me, self.stones
        bits, cell, name = self.bits(), BIT[c], N(c)
        ok = bool(cell & rules.echo_capture_enemy(bits, me))
        self.say("echo-capture.enemy", STEP_ECHO, ok, [c], c=name, after=self._after_project(c), holds=self._holds(c))
        empty = [n for n in NEIGHBOURS[c] if stones[n] is None]
        ok = bool(rules.echo_capture_sealed(bits, cell))
        how = "one" if len(empty) == 1 else ""
        self.say(
            "echo-capture.sealed",
            STEP_ECHO,
            ok,
            [c] if ok else [c, *empty],
            how="" if ok else how,
            c=name,
            empty=empty and _list(empty),
        )
        self.say(
            "echo-capture.tier",
            STEP_ECHO,
            bool(cell & rules.echo_capture_tier(bits.tier1, bits.tier2)),
            [c],
            tier=self._tier(c),
        )
        mine = [n for n in NEIGHBOURS[c] if stones[n] == me]
        ok = bool(rules.echo_capture_contact(bits, me, cell))
        how = "one" if ok and len(mine) == 1 else ""
        self.say("echo-capture.contact", STEP_ECHO, ok, [c, *mine], how=how, c=name, mine=mine and _list(mine))

    def echo_lock(self, c: Cell) -> None:
        # One check per rule, each decided by checker.rules, which the generator and the count use too.
        me, m = self.me, self.m
        bits, cell, name = self.bits(), BIT[c], N(c)
        ok = rules.echo_lock_once(m)
        self.say("echo-lock.once", STEP_ECHO, ok, earlier="" if ok else self._earlier_lock())
        ok = bool(cell & rules.echo_lock_own_stone(bits, me))
        self.say("echo-lock.own-stone", STEP_ECHO, ok, [c], c=name, after=self._after_project(c), holds=self._holds(c))
        self.say("echo-lock.tier", STEP_ECHO, bool(cell & rules.echo_lock_tier(bits.tier2)), [c], tier=self._tier(c))
        self.say("echo-lock.unlocked", STEP_ECHO, bool(cell & rules.echo_lock_unlocked(bits)), [c], c=name)

    def _earlier_lock(self) -> str:
        """Where the mover Echo-Locked before, when the position (or the history) shows it; otherwise
        which locked cells it may be, and why it cannot be told."""
        me, pos = self.me, self.pos
        cells = [c for c in board.CELLS if pos.locked[c]]
        if not pos.player(self.enemy).echo_lock_used and len(cells) == 1:
            return f"on {N(cells[0])} (the one locked cell; {self.enemy} has not Echo-Locked)"
        found = _lock_in_history(self.history, pos, me)
        if found is not None:
            return f"on {N(found)} (the history shows {N(found)} locked on {me}'s turn)"
        why = "the position does not record who locked which" + (
            "" if self.history is None else ", and the history does not show it"
        )
        return f"on {_list(cells, 'or')} ({why})" if cells else f"but no cell is locked ({why})"


def _lock_in_history(history: Sequence[Position] | None, pos: Position, who: str) -> Cell | None:
    """The cell ``who`` Echo-Locked, as the history shows it: the one cell that became locked between two
    consecutive positions (the history, then ``pos``) across which ``who``'s Echo-Lock became used, and is
    still locked; ``None`` when the history does not show it."""
    if not history:
        return None
    seq = [*history, pos]
    for a, b in zip(seq, seq[1:]):
        if not a.player(who).echo_lock_used and b.player(who).echo_lock_used:
            new = [c for c in board.CELLS if b.locked[c] and not a.locked[c]]
            return new[0] if len(new) == 1 and pos.locked[new[0]] else None
    return None


def _describe_legal(pos: Position, turn: Turn, outcome: Outcome) -> str:
    """What a legal turn does, as a sentence; with an Echo-Capture, which
    capture took each stone and what the Echo-Capture found (D-8)."""
    me = pos.to_move
    p, s, e = turn
    if isinstance(p, Place):
        parts = [f"{me} Places on {N(p.cell)}"]
    elif isinstance(p, Move):
        parts = [f"{me} Moves {N(p.src)} to {N(p.dst)}"]
    else:
        parts = [f"{me} skips the Project and the Shape (capture cooldown)"]
    if s is not None:
        parts.append(f"{s.kind}s {N(s.cell)}")
    if e is not None:
        parts.append(f"{'Echo-Captures' if e.kind == CAPTURE else 'Echo-Locks'} {N(e.cell)}")
    text = and_list(parts)
    captures = {ev.kind: list(ev.cells) for ev in outcome.events if ev.type == EventType.CAPTURE}
    if e is not None and e.kind == CAPTURE:
        text += f": {_echo_capture_story(N(e.cell), captures)}"
    else:
        taken = [
            f"{', '.join(cells)} ({'Move capture' if kind == CaptureKind.MOVE else kind})"
            for kind, cells in captures.items()
            if cells
        ]
        if taken:
            text += f", capturing {'; '.join(taken)}"
    g = outcome.game
    if g.over:
        ending = "a draw" if g.result == "draw" else f"{g.result} wins"
        text += f"; the game ends: {ending} ({g.reason})"
    return f"{text}."


_BY = {CaptureKind.MOVE: "the Move", CaptureKind.ENCIRCLEMENT: "encirclement", CaptureKind.ECHO: "the Echo-Capture"}


def _echo_capture_story(target: str, captures: dict[CaptureKind | None, list[str]]) -> str:
    """Which capture took which stones on a turn with an Echo-Capture of ``target``, and, when the
    Echo-Capture took nothing, why (D-8): the normal check took the target first, or no stone of its
    group met the test."""
    taken = [
        f"{_BY[kind]} captures {and_list(captures[kind])}"
        for kind in (CaptureKind.MOVE, CaptureKind.ENCIRCLEMENT)
        if captures.get(kind)
    ]
    if captures.get(CaptureKind.ECHO):
        return "; ".join([*taken, f"the Echo-Capture captures {and_list(captures[CaptureKind.ECHO])}"])
    if target in (captures.get(CaptureKind.ENCIRCLEMENT) or ()):
        return (
            f"{'; '.join(taken)} before the Echo-Capture check, so the Echo-Capture finds nothing and its "
            "charge is spent (D-8)"
        )
    return "; ".join(
        [
            *taken,
            f"the Echo-Capture finds nothing (no stone of {target}'s group meets the test, "
            "see the weighing) and its charge is spent (D-8)",
        ]
    )


def _explain_illegal(failed: list[Check]) -> str:
    """Why an illegal turn is illegal, as a sentence: the first failed check's
    clause, then the others by name (their catalogue titles) and id."""
    rest = [f"{RULES[c.rule].title} ({c.rule})" for c in failed[1:]]
    also = f"; also failed: {and_list(rest)}" if rest else ""
    return f"{failed[0].clause}{also}."


def check(
    position: Position,
    turn: Turn,
    history: Iterable[Position] | None = None,
    *,
    assume_consistent: bool = False,
    ended: GameResult | None = None,
) -> Verdict:
    """Judge ``turn`` played from ``position``.

    ``history`` is the game's earlier positions, oldest first, not including
    ``position``; without it repetition and threefold are reported as not
    evaluated.  Raises :class:`InconsistentPosition` when the position breaks
    D-3 (pass ``assume_consistent=True`` when the caller has checked already).
    ``ended``: a replay's game after the turn before, which may have ended it
    in a way the position alone cannot show (a repetition or a threefold).
    """
    if not assume_consistent:
        problems = position.problems()
        if problems:
            raise InconsistentPosition(problems)
    if history is not None and not isinstance(history, Sequence):
        history = list(history)
    judge = _Judge(position, turn, history)
    judge.game_over(ended)
    judge.project()
    judge.shape()
    judge.echo()
    checks = tuple(judge.checks)
    failed = [c for c in checks if c.status == FAILED]
    htn = turn_to_htn(turn, position)
    if failed:
        return Verdict(False, htn, position.to_move, _explain_illegal(failed), checks, None, turn)
    outcome = apply(position, turn, history)
    return Verdict(True, htn, position.to_move, _describe_legal(position, turn, outcome), checks, outcome, turn)


def consistency_checks(position: Position) -> list[Check]:
    """Every ``position.*`` condition of D-3 as checks, in catalogue order: one
    failed check per broken condition (with its message), one passed check
    for each condition that holds."""
    problems = position.problems()
    out: list[Check] = []
    for rule in RULE_IDS:
        if not rule.startswith("position."):
            continue
        mine = [p for p in problems if p.rule == rule]
        if mine:
            out.extend(Check(rule, STEP_POSITION, FAILED, p.cells, p.message) for p in mine)
        else:
            out.append(Check(rule, STEP_POSITION, PASSED, (), RULES[rule].text))
    return out


@dataclass(frozen=True, slots=True)
class Validation:
    """A position's consistency (D-3) and, when consistent, its state."""

    position: Position
    consistent: bool
    checks: tuple[Check, ...]
    game: GameResult | None  # None when inconsistent
    cooldown_skip: bool | None
    legal_turns: int | None


def validate(position: Position) -> Validation:
    """Every ``position.*`` check, and for a consistent position whether the
    game is over, whether the cooldown skip applies and how many legal turns
    there are."""
    checks = tuple(consistency_checks(position))
    if not position.is_consistent():
        return Validation(position, False, checks, None, None, None)
    return Validation(
        position,
        True,
        checks,
        game_status(position, history_given=False),
        skip_applies(position),
        len(legal_turns(position)),
    )
