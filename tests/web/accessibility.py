"""axe-core in the browser tests: the serious and critical violations on a page.

axe-playwright-python injects the axe-core script it ships (no download) into
a Playwright page and runs it.  ``violations`` keeps what a test must fail on:
impact "serious" or "critical", outside the selectors a caller excludes
(third-party markup that is not ours to set, each exclusion named where it
is used).
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.browser import FAILING_IMPACTS


@dataclass(frozen=True)
class Violation:
    rule: str  # axe's rule id, e.g. "color-contrast"
    impact: str
    help: str
    targets: tuple[str, ...]  # CSS selectors of the offending nodes

    def __str__(self) -> str:
        return f"{self.rule} ({self.impact}): {self.help} at {', '.join(self.targets)}"


def violations(page, exclude: tuple[str, ...] = ()) -> list[Violation]:
    """The serious and critical axe violations on ``page`` as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    context = {"exclude": [[selector] for selector in exclude]} if exclude else None
    response = Axe().run(page, context=context).response
    found = []
    for item in response["violations"]:
        if item.get("impact") not in FAILING_IMPACTS:
            continue
        targets = tuple(" ".join(map(str, node["target"])) for node in item["nodes"])
        found.append(Violation(item["id"], item["impact"], item["help"], targets))
    return found


def assert_accessible(page, exclude: tuple[str, ...] = ()) -> None:
    """Fail, listing each one, if axe finds a serious or critical violation."""
    found = violations(page, exclude)
    assert not found, "axe-core found:\n" + "\n".join(f"- {v}" for v in found)
