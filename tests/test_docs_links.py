"""Every relative link in README.md and docs/*.md leads to a file in the repository: the README is split into
pages that move and get renamed, and a dead link is the first thing a new user meets."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target) and ![alt](target); the target ends at whitespace or the closing parenthesis
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)")


def relative_links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)   # code blocks hold no links
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:|#", target)]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_points_at_an_existing_file(page):
    missing = [target for target in relative_links(page)
               if not (page.parent / target.split("#")[0]).exists()]
    assert missing == [], f"{page.relative_to(ROOT)} links to missing files: {missing}"


def test_the_readme_links_every_docs_page():
    linked = {(ROOT / target.split("#")[0]).resolve() for target in relative_links(ROOT / "README.md")}
    unlinked = [page.name for page in PAGES[1:] if page.resolve() not in linked]
    assert unlinked == []
