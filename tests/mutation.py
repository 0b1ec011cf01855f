"""The mutation score per module, from the results mutmut 3 left in mutants/
(``make mutate`` prints it after its run; docs/testing.md).

``python -m tests.mutation`` prints one row per mutated module: its mutants,
how many the tests killed, how many survived, timed out, had no test, or were
not yet run; ``python -m tests.mutation --survivors`` lists the survivors' names
too (``mutmut show NAME`` shows one's change).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

MUTANTS = Path("mutants")

# mutmut's exit codes (mutmut.stats.status_by_exit_code), in the columns printed here
KILLED = {1, 3, 37}
SURVIVED = {0}
TIMEOUT = {24, -24, 152, 255, 36}
NO_TESTS = {5, 33}
NOT_RUN = {None}


def status(code: int | None) -> str:
    for name, codes in (
        ("killed", KILLED),
        ("survived", SURVIVED),
        ("timeout", TIMEOUT),
        ("no tests", NO_TESTS),
        ("not run", NOT_RUN),
    ):
        if code in codes:
            return name
    return "other"


def results(root: Path = MUTANTS) -> dict[str, dict[str, int | None]]:
    """Each mutated module (its path under the repository) and its mutants' exit codes."""
    found = {}
    for meta in sorted(root.rglob("*.py.meta")):
        module = meta.relative_to(root).as_posix().removesuffix(".meta")
        found[module] = json.loads(meta.read_text())["exit_code_by_key"]
    return found


def table(found: dict[str, dict[str, int | None]]) -> list[str]:
    columns = ("killed", "survived", "timeout", "no tests", "not run", "other")
    rows = [f"{'module':<34} {'mutants':>7} {'killed':>7} {'score':>7} " + " ".join(f"{c:>8}" for c in columns[1:])]
    total: Counter[str] = Counter()
    for module, codes in found.items():
        counts = Counter(status(code) for code in codes.values())
        total.update(counts)
        rows.append(row(module, len(codes), counts, columns))
    rows.append(row("all", sum(len(codes) for codes in found.values()), total, columns))
    return rows


def row(name: str, mutants: int, counts: Counter[str], columns: tuple[str, ...]) -> str:
    tried = mutants - counts["not run"]
    # a time-out is a kill: the mutant made a test hang (mutmut's own score counts it so)
    score = f"{100 * (counts['killed'] + counts['timeout']) / tried:.1f}%" if tried else "-"
    return f"{name:<34} {mutants:>7} {counts['killed']:>7} {score:>7} " + " ".join(
        f"{counts[c]:>8}" for c in columns[1:]
    )


def main(argv: list[str]) -> int:
    found = results()
    if not found:
        print("no mutation results in mutants/: run make mutate first")
        return 1
    print("\n".join(table(found)))
    if "--survivors" in argv:
        for codes in found.values():
            for name, code in codes.items():
                if status(code) == "survived":
                    print("survived:", name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
