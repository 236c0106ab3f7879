"""The README and the pages under docs/ link to each other and to files of the repository: every
relative link must lead somewhere, so that the pages read well on a code host without building."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]

#: ``[words](target)`` and ``![alt](target)``, outside code spans; the target ends at a space or ")".
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)[^)]*\)")
FENCE = re.compile(r"```.*?```", re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#+\s+(.*)$", re.M)


def _links(page: Path) -> list[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    return LINK.findall(text)


def _anchor(heading: str) -> str:
    """The anchor a code host gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    return {_anchor(h) for h in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8")))}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_of_the_docs_resolves(page: Path) -> None:
    broken = []
    for target in _links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
            continue  # an absolute URL (https:, mailto:): not the repository's to check
        path, _, fragment = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        missing_anchor = fragment and destination.suffix == ".md" and fragment not in _anchors(destination)
        if not destination.exists() or missing_anchor:
            broken.append(target)
    assert broken == [], f"{page.relative_to(ROOT)} links to what is not there: {broken}"


def test_the_docs_folder_has_pages() -> None:
    assert len(PAGES) > 5


def test_the_readme_stays_short() -> None:
    """The README is the front door: what it is, the two commands, where to go next."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()

    assert len(lines) <= 200
    assert "make run" in "\n".join(lines) and "make test" in "\n".join(lines)
