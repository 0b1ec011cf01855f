"""JSON text written directly, for the one answer too large for a dict per item:
the legal turns of ``POST /v1/legal-turns`` (3,097 turns, 430 KB, on the
busiest bench position).

:class:`~schemas.responses.LegalTurnsSchema` stays the declaration of the
answer (the document's, and the reference dump); :func:`legal_turns_json`
writes the same JSON text from parts made once: every Shape's and every
Echo's HTN token and JSON object once per process, each Project's once per
answer.  The turns come as the generator's groups
(:func:`checker.generate.turn_groups`: a Project, its Shapes and the masks of
the Echo targets after them), so a Project is written once per group and a
Shape once, and a turn costs a join.
``tests/schemas/test_writers.py`` checks the text is what the schema dumps,
over random positions.
"""

from __future__ import annotations

import orjson

from checker import board
from checker.board import cells
from checker.notation import echo_to_htn, project_to_htn, shape_to_htn
from checker.turn import CAPTURES, LOCKS, LOWERS, RAISES, Shape
from checker.version import RULES_VERSION
from schemas.turn import TurnForm, project_to_json

__all__ = ["legal_turns_json"]


def _step_parts(step) -> tuple[bytes, bytes]:
    """A Shape's or an Echo's HTN token (after a space) and JSON object, as JSON text (ASCII)."""
    token = shape_to_htn(step) if isinstance(step, Shape) else echo_to_htn(step)
    return b" " + token.encode(), orjson.dumps({"kind": str(step.kind), "cell": board.name(step.cell)})


_NONE = (b"", b"null")
_INTERNED = (*RAISES, *LOWERS, *CAPTURES, *LOCKS)  # alive as long as the process: their ids stay theirs
_BY_ID: dict[int, tuple[bytes, bytes]] = {id(step): _step_parts(step) for step in _INTERNED}
_BY_ID[id(None)] = _NONE


def _parts(step) -> tuple[bytes, bytes]:
    """``step``'s parts: by identity for the generator's own objects (and None), else made afresh."""
    found = _BY_ID.get(id(step))
    return found if found is not None else _step_parts(step)


_HEAD = b'{"rules_version":' + orjson.dumps(RULES_VERSION) + b',"count":'


def _echo_tails(echoes, close: bytes) -> tuple[list[bytes], list[bytes]]:
    """Per cell: the Echo's HTN token (after a space), and its JSON object followed by ``close``."""
    parts = [_parts(e) for e in echoes]
    return [htn for htn, _ in parts], [obj + close for _, obj in parts]


_CLOSE_OBJECT, _CLOSE_HTN = b"}},", b'",'
_CAPTURE_HTN, _CAPTURE_OBJECT = _echo_tails(CAPTURES, _CLOSE_OBJECT)
_LOCK_HTN, _LOCK_OBJECT = _echo_tails(LOCKS, _CLOSE_OBJECT)
_CAPTURE_END = [htn + _CLOSE_HTN for htn in _CAPTURE_HTN]
_LOCK_END = [htn + _CLOSE_HTN for htn in _LOCK_HTN]


def legal_turns_json(answer) -> bytes:
    """The JSON text of the legal-turns answer ``(position, groups, form)``
    (``groups``: :func:`checker.generate.turn_groups`):
    ``{"rules_version", "count", "turns"}``, each turn ``{"htn", "turn"}``
    (``form`` objects) or its HTN string (``form`` htn), the key order and
    values of the schema's dump."""
    position, groups, form = answer
    pieces: list[bytes] = [_HEAD, b"", b',"turns":[']
    add = pieces.append
    count = 0
    last_project = object()
    objects = form is TurnForm.OBJECTS
    for project, shapes, captures, locks in groups:
        if project is not last_project:
            last_project = project
            p_htn = project_to_htn(project, position).encode()  # HTN is ASCII: its JSON string needs no escape
            p_json = orjson.dumps(project_to_json(project))
        caps, lks = cells(captures), cells(locks)
        count += len(shapes) * (1 + len(caps) + len(lks))
        for shape in shapes:
            s_htn, s_json = _parts(shape)
            # each turn of the Shape is head + its tail: the tails joined by head
            if objects:
                head = b'{"htn":"' + p_htn + s_htn
                mid = b'","turn":{"project":' + p_json + b',"shape":' + s_json + b',"echo":'
                tails = [mid + b"null" + _CLOSE_OBJECT]
                tails += [_CAPTURE_HTN[c] + mid + _CAPTURE_OBJECT[c] for c in caps]
                tails += [_LOCK_HTN[c] + mid + _LOCK_OBJECT[c] for c in lks]
            else:
                head = b'"' + p_htn + s_htn
                tails = [_CLOSE_HTN, *[_CAPTURE_END[c] for c in caps], *[_LOCK_END[c] for c in lks]]
            add(head)
            add(head.join(tails))
    pieces[1] = str(count).encode()
    if count:
        pieces[-1] = pieces[-1][:-1]  # no comma after the last turn
    pieces.append(b"]}")
    return b"".join(pieces)
