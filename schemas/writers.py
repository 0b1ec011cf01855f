"""JSON text written directly, for the one answer too large for a dict per item:
the legal turns of ``POST /v1/legal-turns`` (3,097 turns, 430 KB, on the
busiest bench position).

:class:`~schemas.responses.LegalTurnsSchema` stays the declaration of the
answer (the document's, and the reference dump); :func:`legal_turns_json`
writes the same JSON text from parts made once: every Shape's and every
Echo's HTN token and JSON object once per process, each Project's once per
answer, so a turn costs a few byte-string joins.  Turns come from
:func:`checker.generate.legal_turns` grouped by Project and Shape, so both are
looked up once per run of turns, and their Shapes and Echoes are the
generator's interned objects, so those are looked up by identity (another
equal object, by value).
``tests/schemas/test_writers.py`` checks the text parses to what the schemas
dump, over random positions.
"""

from __future__ import annotations

import orjson

from checker import board
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


def legal_turns_json(answer) -> bytes:
    """The JSON text of the legal-turns answer ``(position, turns, form)``:
    ``{"rules_version", "count", "turns"}``, each turn ``{"htn", "turn"}``
    (``form`` objects) or its HTN string (``form`` htn), the key order and
    values of the schemas' dump."""
    position, turns, form = answer
    pieces: list[bytes] = [_HEAD, str(len(turns)).encode(), b',"turns":[']
    add = pieces.extend
    last_project = last_shape = object()
    objects = form is TurnForm.OBJECTS
    by_id = _BY_ID
    head = mid = b""
    for project, shape, echo in turns:
        if project is not last_project:
            last_project, last_shape = project, object()
            p_htn = project_to_htn(project, position).encode()  # HTN is ASCII: its JSON string needs no escape
            p_json = orjson.dumps(project_to_json(project))
        if shape is not last_shape:
            last_shape = shape
            s_htn, s_json = _parts(shape)
            if objects:
                head = b'{"htn":"' + p_htn + s_htn
                mid = b'","turn":{"project":' + p_json + b',"shape":' + s_json + b',"echo":'
            else:
                head = b'"' + p_htn + s_htn
        e_htn, e_json = by_id.get(id(echo)) or _parts(echo)
        if objects:
            add((head, e_htn, mid, e_json, b"}},"))
        else:
            add((head, e_htn, b'",'))
    if turns:
        pieces[-1] = pieces[-1][:-1]  # no comma after the last turn
    pieces.append(b"]}")
    return b"".join(pieces)
