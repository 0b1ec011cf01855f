"""The README is a front door: at most 400 lines, a table of contents, the
two commands and a first check within the first screen, and links that lead
to pages that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_short_with_a_table_of_contents():
    lines = README.splitlines()
    assert len(lines) <= 400
    assert "## Contents" in README
    anchors = re.findall(r"\]\(#([a-z0-9-]+)\)", README)
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^## (.+)$", README, re.M)}
    assert anchors and set(anchors) <= headings


def test_the_first_screen_has_the_two_commands_and_a_first_check():
    first = "\n".join(README.splitlines()[:80])
    assert "make run" in first and "make test" in first
    assert "curl" in first and ".venv/bin/hexodic-check" in first and "http://127.0.0.1:8000/" in first


def test_every_linked_page_exists():
    for target in re.findall(r"\]\(((?:docs/)[^)#]+)\)", README):
        assert (ROOT / target).is_file(), target


def test_no_stale_words():
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), ROOT / "gunicorn.conf.py", ROOT / "Makefile"]:
        text = path.read_text(encoding="utf-8")
        assert "$(STAMP)" not in text, path
        assert "a minute and a quarter" not in text, path


def test_links_between_the_docs_pages_lead_somewhere():
    """Each docs page's relative links name a file beside it (or above it), and
    its in-page anchors a heading of its own."""
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", text):
            assert (page.parent / target).resolve().exists(), f"{page.name}: {target}"
        headings = {
            re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.+)$", text, re.M)
        }
        if page.name != "rules.md":  # the rules reference anchors its entries with <a id=...>
            for anchor in re.findall(r"\]\(#([^)]+)\)", text):
                assert anchor in headings, f"{page.name}: #{anchor}"
