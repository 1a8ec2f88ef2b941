"""Every relative link in README.md, docs/*.md and the record and notes pages under docs/ leads to a file in the
repository, and a link to a section of one of those pages to a heading it has: the README is split into pages that
move and get renamed, sections too (a round's record moves from a user page to docs/history/), and a dead link is
the first thing a new user meets."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
USER_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PAGES = [*USER_PAGES, *sorted((ROOT / "docs" / "history").glob("*.md")), *sorted((ROOT / "docs" / "notes").glob("*.md"))]
# [text](target) and ![alt](target); the target ends at whitespace or the closing parenthesis
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)")
# a Markdown heading's line, and what GitHub leaves of its words in the section's anchor
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.M)
NOT_IN_ANCHORS = re.compile(r"[^\w\- ]")


def prose(page: Path) -> str:
    return re.sub(r"```.*?```", "", page.read_text(), flags=re.S)   # code blocks hold no links or headings


def relative_links(page: Path) -> list[str]:
    return [target for target in LINK.findall(prose(page)) if not re.match(r"[a-z]+:|#", target)]


def anchors(page: Path) -> set[str]:
    """The page's sections as GitHub anchors them: lower case, punctuation gone, spaces as hyphens, a heading
    said again numbered from -1."""
    seen: dict[str, int] = {}
    for heading in HEADING.findall(prose(page)):
        slug = NOT_IN_ANCHORS.sub("", heading.lower()).replace(" ", "-")
        seen[slug] = seen.get(slug, -1) + 1
    return {slug if n == 0 else f"{slug}-{n}" for slug, count in seen.items() for n in range(count + 1)}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_points_at_an_existing_file(page):
    missing = [target for target in relative_links(page)
               if not (page.parent / target.split("#")[0]).exists()]
    assert missing == [], f"{page.relative_to(ROOT)} links to missing files: {missing}"


def test_the_readme_links_every_docs_page():
    linked = {(ROOT / target.split("#")[0]).resolve() for target in relative_links(ROOT / "README.md")}
    unlinked = [page.name for page in USER_PAGES[1:] if page.resolve() not in linked]
    assert unlinked == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_to_a_section_of_a_page_finds_its_heading(page):
    missing = []
    for target in LINK.findall(prose(page)):
        path, _, section = target.partition("#")
        linked = (page.parent / path).resolve() if path else page.resolve()
        if section and not re.match(r"[a-z]+:", target) and linked in PAGES and section not in anchors(linked):
            missing.append(target)
    assert missing == [], f"{page.relative_to(ROOT)} links to sections that are not there: {missing}"


def test_the_benchmarks_page_names_every_bench_script():
    """docs/benchmarks.md is where a user looks up what a bench/ script measures."""
    page = (ROOT / "docs" / "benchmarks.md").read_text()
    assert [script.name for script in sorted((ROOT / "bench").glob("*.py")) if f"bench/{script.name}" not in page] == []
