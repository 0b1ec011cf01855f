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


# The rules of axe's default run (enabled, not experimental) that can report an impact that fails a
# page: the rule's own impact or one of its checks'.  A rule that can report only minor or moderate
# findings cannot fail a page, so it is not run (on the rules page it was a fifth of axe's time).
_RULES_THAT_CAN_FAIL = """(failing) => {
  const checks = axe._audit.data.checks;
  const impacts = rule => [rule.impact, ...[...rule.any, ...rule.all, ...rule.none].map(c => (checks[c.id] || {}).impact)];
  return axe._audit.rules
    .filter(rule => rule.enabled !== false && !rule.tags.includes("experimental"))
    .filter(rule => impacts(rule).some(impact => failing.includes(impact)))
    .map(rule => rule.id);
}"""
_rules: list[str] = []  # axe's rules do not change within a run: read once a process


def rules_that_can_fail(page) -> list[str]:
    """The ids of the default run's rules that can report a serious or critical finding."""
    if not _rules:
        from axe_playwright_python.sync_playwright import Axe

        page.evaluate(Axe().axe_script)
        _rules.extend(page.evaluate(_RULES_THAT_CAN_FAIL, sorted(FAILING_IMPACTS)))
    return list(_rules)


def violations(page, exclude: tuple[str, ...] = ()) -> list[Violation]:
    """The serious and critical axe violations on ``page`` as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    context = {"exclude": [[selector] for selector in exclude]} if exclude else None
    options = {"resultTypes": ["violations"], "runOnly": {"type": "rule", "values": rules_that_can_fail(page)}}
    response = Axe().run(page, context=context, options=options).response
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
