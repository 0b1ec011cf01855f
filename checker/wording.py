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

from collections.abc import Sequence

__all__ = ["plural", "and_list", "fill"]


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is 1."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def and_list(words: Sequence[str], last: str = "and") -> str:
    """The words joined by commas, the last two by "and" (or ``last``)."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


class _Count(int):
    """A number in a template: ``{n:step}`` writes it with its noun (:func:`plural`)."""

    def __format__(self, noun: str) -> str:
        return plural(self, noun) if noun else str(int(self))


def fill(template: str, **facts: object) -> str:
    """``template`` (the catalogue's words) with its fields filled from ``facts``;
    a number's field may name its noun, ``{n:step}``."""
    return template.format_map({k: _Count(v) if type(v) is int else v for k, v in facts.items()})
