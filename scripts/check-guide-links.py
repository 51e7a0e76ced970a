#!/usr/bin/env python3
"""Every link inside the built guide (docs/book) leads somewhere: the page
exists and, for `page.html#anchor`, the page has that anchor; and every
relative link of README.md names a file of the repository. mdBook itself
checks neither. Usage: check-guide-links.py BOOK_DIR README; exits 1 with
the broken links listed."""

import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    """The ids and the links (href) of one HTML page."""

    def __init__(self, text):
        super().__init__()
        self.ids, self.links = set(), []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


def broken_book_links(book):
    pages = {path.resolve(): Page(path.read_text()) for path in book.rglob("*.html")}
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(book.resolve())}: {link} (no such page)")
            elif parts.fragment and target in pages and parts.fragment not in pages[target].ids:
                broken.append(f"{path.relative_to(book.resolve())}: {link} (no such anchor)")
    return broken


def broken_readme_links(readme):
    broken = []
    for link in re.findall(r"\]\(([^)\s]+)\)", readme.read_text()):
        if urlsplit(link).scheme or link.startswith("#"):
            continue
        if not (readme.parent / urlsplit(link).path).exists():
            broken.append(f"{readme.name}: {link} (no such file)")
    return broken


def main():
    book, readme = Path(sys.argv[1]), Path(sys.argv[2])
    broken = broken_book_links(book) + broken_readme_links(readme)
    for line in broken:
        print(f"broken link: {line}", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
