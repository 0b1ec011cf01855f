"""Words shared by the checker's messages: a count with its noun, a list joined with "and".

>>> plural(1, "step"), plural(3, "step")
('1 step', '3 steps')
>>> and_list(["a1"]), and_list(["a1", "b2", "c3"]), and_list(["a1", "b2"], "or")
('a1', 'a1, b2 and c3', 'a1 or b2')
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["plural", "and_list"]


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is 1."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def and_list(words: Sequence[str], last: str = "and") -> str:
    """The words joined by commas, the last two by "and" (or ``last``)."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]
