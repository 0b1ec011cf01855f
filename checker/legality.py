"""Checking a turn: a check per rule id, in words, composed into a verdict.

:func:`check` judges a turn against every rule of RULES §9 that concerns it, in turn order, and says why.  Each rule is
decided by its function in :mod:`checker.rules` (the one the generator, the quick turn test and perft's count use too)
on the board as it stands at the step; this module keeps only the words: the facts of the board each check explains
with.

>>> from checker.position import Position
>>> from checker.notation import parse_htn
>>> v = check(Position.start(), parse_htn("d4 +c3"))
>>> v.legal, v.violations
(False, ['place.opening-restriction'])
>>> v.summary
"Illegal: A's first Place must be at least 1 step from the centre, and d4 is the centre."
>>> check(Position.start(), parse_htn("c3 +d4")).legal
True

Later steps are judged even when an earlier one fails (D-14): each declared step's physical effect is applied where it
can be, and the Shape and Echo are judged on the board as it then stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from checker import board, rules
from checker.board import BIT, CENTRE, NEIGHBOURS, STEPS, Cell
from checker.catalogue import RULE_IDS, RULES, STEP_ECHO, STEP_GAME, STEP_MOVE, STEP_PLACE, STEP_POSITION, STEP_SHAPE
from checker.ending import GameResult, describe_game_over, game_over_reason, game_status
from checker.generate import legal_turns, shapes_of
from checker.notation import project_to_htn, shape_to_htn, turn_to_htn
from checker.play import CaptureKind, EventType, Outcome, apply
from checker.position import MAX_HALF_MOVES, Bits, Position, Problem, other
from checker.projects import place_cells, skip_applies
from checker.turn import CAPTURE, LOWER, RAISE, Move, Place, Shape, Skip, Turn
from checker.wording import and_list, plural

__all__ = ["Status", "PASSED", "FAILED", "NOT_APPLICABLE", "Check", "Verdict", "InconsistentPosition"]
__all__ += ["check", "consistency_checks", "Validation", "validate"]


class Status(StrEnum):
    """A check's status.  A ``StrEnum``: equal to, and written as, its string."""

    PASSED = "passed"
    FAILED = "failed"
    NOT_APPLICABLE = "not_applicable"


PASSED, FAILED, NOT_APPLICABLE = Status.PASSED, Status.FAILED, Status.NOT_APPLICABLE
N = board.name
NAMES = board.NAMES
_new = tuple.__new__  # a check made by tuple's own constructor, without NamedTuple's Python-level __new__


class Check(NamedTuple):
    """One rule's judgement of a turn (a named tuple: cheap to make, a verdict has a dozen or more).

    A check made by :func:`check` keeps the parts its message is made of, "<requires>; <shows>." (or "<shows>."):
    ``requires``, what the rule requires (empty when the message states only the board), and ``shows``, what the
    board shows.  A ``position.*`` check carries its :class:`~checker.position.Problem`'s message whole, no parts."""

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


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to "is this turn legal, and why?": ``explanation`` says why, as a sentence (an illegal
    turn's first failed :attr:`Check.clause`, and the titles and ids of any further failed checks; what a
    legal turn does), ``summary`` the same after "Legal: " or "Illegal: ".  ``declared`` is the turn judged."""

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


def _holds(stones: Sequence[str | None], cell: Cell, me: str, own: str = " own") -> str:
    """What ``cell`` holds, as the board shows it: "c3 is empty", "c3 holds A's own stone", "c3 holds B's stone"."""
    s = stones[cell]
    return f"{N(cell)} is empty" if s is None else f"{N(cell)} holds {s}'s{own if s == me else ''} stone"


def _list(cells: Iterable[Cell], last: str = "and") -> str:
    return and_list(board.names(cells), last)


# What each rule requires, said when its check fails ({me}: the mover), and by the opening restriction's
# passed check too.  A requirement worded otherwise (the undeclared skip's, place.cooldown's, a Move onto
# the mover's own stone, shape.range's and shape.tier-limit's) is stated where its check is made.
_REQUIRES = {
    "game.over": "The game is already over",
    "project.skip": "The Project may be skipped only when the capture cooldown leaves no legal Place",
    "place.reserve": "A Place needs a stone in reserve",
    "place.empty": "A Place needs an empty cell",
    "place.unlocked": "A locked cell can never be Placed onto",
    "place.opening-restriction": "{me}'s first Place must be at least 1 step from the centre",
    "move.reserve-empty": "A Move is only available once the reserve is empty",
    "move.own-stone": "A Move steps one of {me}'s own stones",
    "move.adjacent": "A Move goes to one of the six neighbouring cells",
    "move.destination": "A Move onto an enemy stone needs its tier strictly lower than the from-cell's",
    "shape.skipped": "When the Project is skipped the Shape is skipped too",
    "shape.mandate": "The Shape may be left out only when no legal Shape targets a cell not occupied by {me}'s own stone",
    "shape.unlocked": "A locked cell can never be Shaped",
    "shape.lowering-budget": "A lower needs at least 1 lower left",
    "echo.charge": "An Echo needs a charge",
    "echo-capture.enemy": "An Echo-Capture targets an enemy stone",
    "echo-capture.sealed": "An Echo-Capture target must have no empty neighbouring cell",
    "echo-capture.tier": "An Echo-Capture target must stand on Tier 1 or 2",
    "echo-capture.contact": "An Echo-Capture needs at least one of {me}'s stones adjacent to the target",
    "echo-lock.once": "Each player may Echo-Lock once per game",
    "echo-lock.own-stone": "An Echo-Lock targets a cell occupied by {me}'s own stone",
    "echo-lock.tier": "An Echo-Lock needs a Tier-2 cell",
    "echo-lock.unlocked": "An Echo-Lock target must not be locked already",
}


class _Judge:
    """Judges one turn: one check per rule, in turn order, on the board as it stands after each step."""

    def __init__(self, pos: Position, turn: Turn, history: Sequence[Position] | None = None):
        self.pos, self.turn, self.history = pos, turn, history
        self.me, self.enemy, self.m = pos.to_move, other(pos.to_move), pos.mover
        self.stones, self.tiers, self.locked = list(pos.stones), list(pos.tiers), pos.locked
        self.bits: Bits = pos.bits  # the same board as masks, what checker.rules decides on; kept up to date
        self.step = STEP_GAME  # the step being judged
        self.shaped: Shape | None = None  # this turn's Shape, once it has changed a tier
        self.checks: list[Check] = []

    def rule(self, rule: str, ok: object, shows: str, cells: Iterable[Cell] = (), requires: str | None = None) -> None:
        """Record a check, passed when ``ok`` is true, not applicable when it is ``None``: ``shows`` what the board
        shows, ``requires`` what the rule requires (by default, when the check fails, what :data:`_REQUIRES` says)."""
        status = NOT_APPLICABLE if ok is None else PASSED if ok else FAILED
        if requires is None:
            requires = _REQUIRES[rule].format(me=self.me) if status is FAILED else ""
        message = f"{requires}; {shows}." if requires else f"{shows}."
        names = tuple([NAMES[c] for c in cells])
        self.checks.append(_new(Check, (rule, self.step, status, names, message, requires, shows)))

    def _after_project(self, c: Cell, fact: str) -> str:
        """``fact`` about ``c``'s stone, saying so when this turn's Project changed it (the board the player sees still
        shows it as it was)."""
        if self.stones[c] == self.pos.stones[c]:
            return fact
        p = self.turn.project
        step = f"the Place on {N(p.cell)}" if isinstance(p, Place) else f"the Move {project_to_htn(p, self.pos)}"
        return f"after {step}, {fact}"

    def _tier(self, c: Cell) -> str:
        """ "c3 is Tier 1", or "after the Shape -c3, c3 is Tier 1" when this turn's Shape changed it."""
        fact = f"{N(c)} is Tier {self.tiers[c]}"
        s = self.shaped
        return f"after the Shape {shape_to_htn(s)}, {fact}" if s is not None and s.cell == c else fact

    def _cooldown(self) -> str:
        return f"{self.me}'s capture cooldown ({_list(self.m.cooldown)})"

    def game_over(self, ended: GameResult | None = None) -> None:
        if (reason := game_over_reason(self.pos)) is not None:
            shows = describe_game_over(self.pos, reason)
        elif ended is not None and ended.over:  # a repetition or threefold, known to a replay
            how = "a threefold repetition" if ended.reason == "threefold" else f"a {ended.reason}"
            won = "a draw" if ended.result == "draw" else f"{ended.result} wins"
            shows = f"the turn before this one ended the game by {how} ({won})"
        else:
            played = f"{self.pos.half_moves} of {MAX_HALF_MOVES} half-moves played"
            return self.rule("game.over", True, f"The game is not over: {self.me} is to move, {played}")
        self.rule("game.over", False, f"{shows}. No turn can be played")

    def project(self) -> None:
        """The Place's or the Move's checks, then whether the Project may be, or must be, skipped."""
        p, me, m, cd = self.turn.project, self.me, self.m, sorted(self.m.cooldown)
        skip, declared = skip_applies(self.pos), isinstance(p, Skip)
        self.step = STEP_PLACE if m.reserve > 0 else STEP_MOVE  # D-15
        if isinstance(p, Place):
            self.place(p.cell)
        elif isinstance(p, Move):
            self.move(p.src, p.dst, skip)
        if skip:  # declared, or the requirement leads the sentence: "The Project must be skipped: <why>"
            why = f"{self._cooldown()} leaves no cell {me} may Place on, so the Project and the Shape are skipped"
            must = f"The Project must be skipped: {why} this turn (declare skip)"
            return self.rule("project.skip", declared, f"{why} and the cooldown clears" if declared else must, cd, "")
        if not declared and not m.cooldown:
            return self.rule("project.skip", None, f"{me} has no capture cooldown, so the Project is not skipped")
        if not declared:
            why = f"{self._cooldown()} leaves {plural(len(place_cells(self.pos)), 'cell')} {me} may Place on"
            return self.rule("project.skip", True, f"{why}, so the Project is not skipped", cd)
        if m.reserve < 1:
            why = f"{me}'s reserve is empty, so the Project is a Move; only a capture cooldown can skip it"
        elif not m.cooldown:
            why = f"{me} has no capture cooldown, so {me} must Place"
        elif free := place_cells(self.pos):
            n, example = plural(len(free), "cell"), N(free[0])
            why = f"{self._cooldown()} still leaves {n} {me} may Place on (for example {example}), so {me} must Place"
        else:
            why = "no cell is free for a Place even ignoring the cooldown, so there is no skip"
            why += f" and {me} has no legal Project"
        self.rule("project.skip", False, why, cd)

    def place(self, c: Cell) -> None:
        me, m, stones, bits = self.me, self.m, self.stones, self.bits
        if rules.place_reserve(m):
            self.rule("place.reserve", True, f"{me} has {plural(m.reserve, 'stone')} in reserve")
        else:
            self.rule("place.reserve", False, f"{me}'s reserve is empty, so the Project must be a Move")
        self.rule("place.empty", BIT[c] & rules.place_empty(bits), _holds(stones, c, me), [c])
        ok = BIT[c] & rules.place_unlocked(bits)
        self.rule("place.unlocked", ok, f"{N(c)} is not locked" if ok else f"{N(c)} is locked", [c])
        if m.placed:
            why = f"{me} has made their first Place already; the opening restriction applies only to the first Place"
            self.rule("place.opening-restriction", None, why)
        else:  # passed or failed, the check says what the rule requires
            ok = BIT[c] & rules.place_opening_restriction(m)
            far = f"{N(c)} is {plural(STEPS[c][CENTRE], 'step')} from d4" if ok else "d4 is the centre"
            self.rule("place.opening-restriction", ok, far, [c], _REQUIRES["place.opening-restriction"].format(me=me))
        if not m.cooldown:
            self.rule("place.cooldown", None, f"{me} has no capture cooldown")
        else:  # passed or failed, the check says what the rule requires
            cd, d = sorted(m.cooldown), STEPS[c]
            if ok := BIT[c] & rules.place_cooldown(m):
                facts = ", ".join(f"{d[k]} from {N(k)}" for k in cd)
            else:
                cd = [k for k in cd if d[k] < 2]
                facts = ", ".join(f"{plural(d[k], 'step')} from {N(k)}" if d[k] else f"on {N(k)} itself" for k in cd)
            rule = f"{me}'s next Place must be at least 2 steps from every cell where {me}'s stones were captured"
            self.rule("place.cooldown", ok, f"{N(c)} is {facts}", [c, *cd], f"{self._cooldown()}: {rule}")
        if stones[c] is None:  # D-14: a Place puts the stone only on an empty cell
            stones[c] = me
            self.bits = rules.placed(bits, me, c)

    def move(self, a: Cell, b: Cell, skip: bool) -> None:
        me, m, stones, tiers, bits = self.me, self.m, self.stones, self.tiers, self.bits
        if rules.move_reserve_empty(m):
            self.rule("move.reserve-empty", True, f"{me}'s reserve is empty, so the Project may be a Move")
        else:
            extra = " (and here the capture cooldown skips the Project)" if skip else ""
            why = f"{me} still has {plural(m.reserve, 'stone')} in reserve, so the Project must be a Place{extra}"
            self.rule("move.reserve-empty", False, why)
        own = BIT[a] & rules.move_own_stone(bits, me)
        self.rule("move.own-stone", own, _holds(stones, a, me, ""), [a])
        ok, d = BIT[b] & rules.move_adjacent(a), STEPS[a][b]
        fact = f"a neighbour of {N(a)}" if ok else f"{N(a)} itself" if d == 0 else f"{d} steps from {N(a)}"
        self.rule("move.adjacent", ok, f"{N(b)} is {fact}", [a, b])
        sb = stones[b]
        lock_note = f" ({N(b)} is locked; a Move onto a locked cell is legal)" if self.locked[b] else ""
        reachable = BIT[b] & rules.move_destination(bits, me, a)
        if reachable and sb is None:
            self.rule("move.destination", True, f"{N(b)} is empty{lock_note}", [b])
        elif not reachable and sb == me:
            never = f"A Move can never enter a cell holding {me}'s own stone"
            self.rule("move.destination", False, f"{N(b)} holds {me}'s own stone", [b], never)
        elif reachable:
            why = f"{N(b)} holds {sb}'s stone on Tier {tiers[b]}, strictly lower than {N(a)}'s Tier {tiers[a]}"
            self.rule("move.destination", True, f"{why}: a Move capture{lock_note}", [a, b])
        else:
            why = f"{N(b)} holds {sb}'s stone on Tier {tiers[b]} and {N(a)} is Tier {tiers[a]}"
            self.rule("move.destination", False, why, [a, b])
        if own and sb != me:  # D-14: the Move happens, removing any enemy stone there
            stones[a], stones[b] = None, me
            self.bits = rules.moved(bits, me, a, b)

    def shape(self) -> None:
        s, landing = self.turn.shape, self.turn.landing
        self.step = STEP_SHAPE
        if landing is None:  # a skip: no landing cell
            given = f"{shape_to_htn(s)} was given" if s else "The Project is skipped, so the Shape is skipped too"
            self.rule("shape.skipped", not s, given, [s.cell] if s else ())
        elif s is None:
            self.shape_left_out(landing)
        else:
            self.shape_given(s, landing)

    def shape_left_out(self, landing: Cell) -> None:
        me, m, tiers, stones, bits = self.me, self.m, self.tiers, self.stones, self.bits
        # the rules legal_turns decides the mandate with, on the board after the Project
        raises, lowers = rules.shape_cells(bits, m, landing, RAISE), rules.shape_cells(bits, m, landing, LOWER)
        mandate = rules.mandating_cells(bits, me, raises | lowers)
        mandating = shapes_of(raises & mandate, lowers & mandate)
        if not mandating:  # why no cell within 2 steps takes a Shape that counts: the cells by reason
            near, locked = board.WITHIN_2[landing], self.locked
            own = [c for c in near if stones[c] == me]
            shut = [c for c in near if stones[c] != me and locked[c]]
            flat = [c for c in near if stones[c] != me and not locked[c] and tiers[c] == 2 and m.lowers_left == 0]
            flat_why = f"Tier 2 with no lowers left ({me} has 0 of 6)"
            reasons = [(own, f"holds {me}'s own stone", f"hold {me}'s own stones"), (shut, "is locked", "are locked")]
            reasons.append((flat, f"is {flat_why}", f"are {flat_why}"))
            parts = [f"{_list(cells)} {one if len(cells) == 1 else many}" for cells, one, many in reasons if cells]
            why = f"No legal Shape targets a cell that is not occupied by {me}'s own stone, so the Shape may be"
            blockers = f"of the {plural(len(near), 'cell')} within 2 steps of {N(landing)}, {'; '.join(parts)}"
            return self.rule("shape.mandate", True, f"{why} left out: {blockers}", [landing])
        first = min(mandating, key=lambda sh: (STEPS[landing][sh.cell], sh.cell))
        c, d = first.cell, STEPS[landing][first.cell]
        where = "the landing cell itself" if d == 0 else f"{plural(d, 'step')} from the landing cell {N(landing)}"
        occupant = "empty" if stones[c] is None else f"holding {stones[c]}'s stone"
        more = f"; {len(mandating)} such Shapes in all" if len(mandating) > 1 else ""
        why = f"{shape_to_htn(first)} is legal ({N(c)}: {where}, Tier {tiers[c]}, unlocked, {occupant}){more}"
        self.rule("shape.mandate", False, why, [c])

    def shape_given(self, s: Shape, landing: Cell) -> None:
        me, m, tiers, bits = self.me, self.m, self.tiers, self.bits
        c, kind, t, d = s.cell, s.kind, tiers[s.cell], STEPS[landing][s.cell]
        if BIT[c] & rules.shape_range(landing):
            at = "is the landing cell" if d == 0 else f"is {plural(d, 'step')} from the landing cell {N(landing)}"
            self.rule("shape.range", True, f"{N(c)} {at} (at most 2)", [c, landing])
        else:
            within = f"A Shape must be within 2 steps of the landing cell {N(landing)}"
            self.rule("shape.range", False, f"{N(c)} is {d} steps from it", [c, landing], within)
        ok = BIT[c] & rules.shape_unlocked(bits)
        self.rule("shape.unlocked", ok, f"{N(c)} is not locked" if ok else f"{N(c)} is locked", [c])
        to = t + 1 if kind == RAISE else t - 1
        tier_ok = BIT[c] & rules.shape_tier_limit(kind, bits.tier1, bits.tier2)
        if tier_ok:
            self.rule("shape.tier-limit", True, f"{N(c)} is Tier {t}; the {kind} makes it Tier {to}", [c])
        else:  # a raise of Tier 2 or a lower of Tier 0
            fact, needs = (f"already Tier {t}", "0 or 1") if kind == RAISE else ("Tier 0", "1 or 2")
            self.rule("shape.tier-limit", False, f"{N(c)} is {fact}", [c], f"A {kind} needs Tier {needs}")
        left = m.lowers_left
        if kind == RAISE:
            budget, why = None, f"A raise does not use the lowering budget ({me} has {left} of 6 lowers left)"
        elif budget := rules.shape_lowering_budget(LOWER, m):
            why = f"{me} has {left} of 6 lowers left; this lower uses one, leaving {left - 1}"
        else:
            why = f"{me} has used the whole lowering budget (0 of 6 lowers left)"
        self.rule("shape.lowering-budget", budget, why)
        if not self.locked[c] and tier_ok:  # D-14: the Shape changes the tier when it can
            tiers[c] = to
            self.shaped = s
            t1, t2 = rules.shaped_by(bits.tier1, bits.tier2, s)
            self.bits = bits._replace(tier1=t1, tier2=t2)

    def echo(self) -> None:
        e, me, m = self.turn.echo, self.me, self.m
        self.step = STEP_ECHO
        if e is None:
            why = f"the Echo is optional ({me} has {plural(m.charges, 'charge')} left)"
            return self.rule("echo.charge", None, f"No Echo was declared; {why}")
        if rules.echo_charge(m):
            why = f"{me} has {plural(m.charges, 'charge')}; the Echo spends one, leaving {m.charges - 1}"
            self.rule("echo.charge", True, why)
        else:
            self.rule("echo.charge", False, f"{me} has none left, and charges never come back")
        (self.echo_capture if e.kind == CAPTURE else self.echo_lock)(e.cell)

    def echo_capture(self, c: Cell) -> None:
        me, stones, bits, cell = self.me, self.stones, self.bits, BIT[c]
        ok = cell & rules.echo_capture_enemy(bits, me)
        self.rule("echo-capture.enemy", ok, self._after_project(c, _holds(stones, c, me)), [c])
        if rules.echo_capture_sealed(bits, cell):
            self.rule("echo-capture.sealed", True, f"{N(c)} has no empty neighbouring cell", [c])
        else:
            empty = [n for n in NEIGHBOURS[c] if stones[n] is None]
            some = "an empty neighbour" if len(empty) == 1 else "empty neighbours"
            self.rule("echo-capture.sealed", False, f"{N(c)} has {some}: {_list(empty)}", [c, *empty])
        self.rule("echo-capture.tier", cell & rules.echo_capture_tier(bits.tier1, bits.tier2), self._tier(c), [c])
        if rules.echo_capture_contact(bits, me, cell):
            mine = [n for n in NEIGHBOURS[c] if stones[n] == me]
            many = len(mine) > 1
            why = f"{me}'s stone{'s' if many else ''} on {_list(mine)} {'are' if many else 'is'} adjacent to {N(c)}"
            self.rule("echo-capture.contact", True, why, [c, *mine])
        else:
            self.rule("echo-capture.contact", False, f"none of {N(c)}'s neighbours holds one", [c])

    def echo_lock(self, c: Cell) -> None:
        me, bits, cell = self.me, self.bits, BIT[c]
        if rules.echo_lock_once(self.m):
            self.rule("echo-lock.once", True, f"{me} has not Echo-Locked before in this game")
        else:
            self.rule("echo-lock.once", False, f"{me} has already used the Echo-Lock, {self._earlier_lock()}")
        ok = cell & rules.echo_lock_own_stone(bits, me)
        self.rule("echo-lock.own-stone", ok, self._after_project(c, _holds(self.stones, c, me, "")), [c])
        self.rule("echo-lock.tier", cell & rules.echo_lock_tier(bits.tier2), self._tier(c), [c])
        ok = cell & rules.echo_lock_unlocked(bits)
        self.rule("echo-lock.unlocked", ok, f"{N(c)} is not locked yet" if ok else f"{N(c)} is locked", [c])

    def _earlier_lock(self) -> str:
        """Where the mover Echo-Locked before, when the position shows it (the one locked cell, the enemy's
        Echo-Lock unused) or the history does (the one cell, still locked, that became locked between two
        consecutive positions across which the mover's Echo-Lock became used); otherwise which locked
        cells it may be, and why it cannot be told."""
        me, pos = self.me, self.pos
        cells = [c for c in board.CELLS if pos.locked[c]]
        if not pos.player(self.enemy).echo_lock_used and len(cells) == 1:
            return f"on {N(cells[0])} (the one locked cell; {self.enemy} has not Echo-Locked)"
        seq = [*(self.history or ()), pos]
        for a, b in zip(seq, seq[1:]):
            if not a.player(me).echo_lock_used and b.player(me).echo_lock_used:
                new = [c for c in board.CELLS if b.locked[c] and not a.locked[c]]
                if len(new) == 1 and pos.locked[new[0]]:
                    return f"on {N(new[0])} (the history shows {N(new[0])} locked on {me}'s turn)"
                break
        why = "the position does not record who locked which"
        why += "" if self.history is None else ", and the history does not show it"
        return f"on {_list(cells, 'or')} ({why})" if cells else f"but no cell is locked ({why})"


_BY = {CaptureKind.MOVE: "the Move", CaptureKind.ENCIRCLEMENT: "encirclement", CaptureKind.ECHO: "the Echo-Capture"}


def _describe_legal(pos: Position, turn: Turn, outcome: Outcome) -> str:
    """What a legal turn does, as a sentence; with an Echo-Capture, which capture took each stone and, when
    the Echo-Capture took nothing, why (D-8): the normal check took the target first, or no stone of its
    group met the test."""
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
    if e is None or e.kind != CAPTURE:
        taken = [f"{', '.join(c)} ({'Move capture' if k == CaptureKind.MOVE else k})" for k, c in captures.items() if c]
        text += f", capturing {'; '.join(taken)}" if taken else ""
    else:
        taken = [f"{by} captures {and_list(captures[kind])}" for kind, by in _BY.items() if captures.get(kind)]
        nothing = "the Echo-Capture finds nothing"
        if N(e.cell) in captures.get(CaptureKind.ENCIRCLEMENT, ()):  # encirclement took the target: the last taken
            taken[-1] += f" before the Echo-Capture check, so {nothing} and its charge is spent (D-8)"
        elif not captures.get(CaptureKind.ECHO):
            why = f"no stone of {N(e.cell)}'s group meets the test, see the weighing"
            taken.append(f"{nothing} ({why}) and its charge is spent (D-8)")
        text += f": {'; '.join(taken)}"
    g = outcome.game
    if g.over:
        ending = "a draw" if g.result == "draw" else f"{g.result} wins"
        text += f"; the game ends: {ending} ({g.reason})"
    return f"{text}."


def check(
    position: Position,
    turn: Turn,
    history: Iterable[Position] | None = None,
    *,
    assume_consistent: bool = False,
    ended: GameResult | None = None,
) -> Verdict:
    """Judge ``turn`` played from ``position``.

    ``history`` is the game's earlier positions, oldest first, not including ``position``; without it repetition and
    threefold are reported as not evaluated.  Raises :class:`InconsistentPosition` when the position breaks D-3 (pass
    ``assume_consistent=True`` when the caller has checked already).  ``ended``: a replay's game after the turn before,
    which may have ended it in a way the position alone cannot show (a repetition or a threefold).
    """
    if not assume_consistent and (problems := position.problems()):
        raise InconsistentPosition(problems)
    if history is not None and not isinstance(history, Sequence):
        history = list(history)
    judge = _Judge(position, turn, history)
    judge.game_over(ended)
    judge.project()
    judge.shape()
    judge.echo()
    checks = tuple(judge.checks)
    failed = [c for c in checks if c.status is FAILED]
    htn = turn_to_htn(turn, position)
    if failed:  # the first failed check's clause, then the others by title and id
        rest = [f"{RULES[c.rule].title} ({c.rule})" for c in failed[1:]]
        why = f"{failed[0].clause}; also failed: {and_list(rest)}." if rest else f"{failed[0].clause}."
        return Verdict(False, htn, position.to_move, why, checks, None, turn)
    outcome = apply(position, turn, history)
    return Verdict(True, htn, position.to_move, _describe_legal(position, turn, outcome), checks, outcome, turn)


def consistency_checks(position: Position) -> list[Check]:
    """Every ``position.*`` condition of D-3 as checks, in catalogue order: one failed check per broken condition (with
    its message), one passed check for each condition that holds."""
    problems = position.problems()
    out: list[Check] = []
    for rule in [r for r in RULE_IDS if r.startswith("position.")]:
        failed = [Check(rule, STEP_POSITION, FAILED, p.cells, p.message) for p in problems if p.rule == rule]
        out.extend(failed or [Check(rule, STEP_POSITION, PASSED, (), RULES[rule].text)])
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
    """Every ``position.*`` check, and for a consistent position whether the game is over, whether the cooldown skip
    applies and how many legal turns there are."""
    checks = tuple(consistency_checks(position))
    if not position.is_consistent():
        return Validation(position, False, checks, None, None, None)
    game, skip = game_status(position, history_given=False), skip_applies(position)
    return Validation(position, True, checks, game, skip, len(legal_turns(position)))
