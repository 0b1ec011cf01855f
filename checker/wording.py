"""Words shared by the checker's messages: a count with its noun, a list
joined with "and", a template of the catalogue filled with facts.

>>> plural(1, "step"), plural(3, "step")
('1 step', '3 steps')
>>> and_list(["a1"]), and_list(["a1", "b2", "c3"]), and_list(["a1", "b2"], "or")
('a1', 'a1, b2 and c3', 'a1 or b2')
>>> fill("{me} has {n:stone} in reserve", me="A", n=1)
'A has 1 stone in reserve'
"""

from __future__ import annotations

import functools
import string
from collections.abc import Sequence

__all__ = ["plural", "and_list", "fill"]


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is 1."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def and_list(words: Sequence[str], last: str = "and") -> str:
    """The words joined by commas, the last two by "and" (or ``last``)."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


@functools.cache
def _parts(template: str) -> tuple[tuple[str, str | None, str], ...]:
    """A template's parts, read once: (text, field or ``None``, the field's noun)."""
    return tuple((text, field, noun or "") for text, field, noun, _ in string.Formatter().parse(template))


def fill(template: str, **facts: object) -> str:
    """``template`` (the catalogue's words) with its fields filled from ``facts``;
    a number's field may name its noun, ``{n:step}`` (:func:`plural`)."""
    out = []
    for text, field, noun in _parts(template):
        out.append(text)
        if field is not None:
            value = facts[field]
            out.append(plural(value, noun) if noun else str(value))  # type: ignore[arg-type]
    return "".join(out)
