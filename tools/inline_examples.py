#!/usr/bin/python3
"""Keeps the docs' example code inline and equal to the example files it shows.

A page shows an example file as a marker comment followed by a fenced block holding the file's text,
so the code reads on the repository page as well as in the mkdocs site (an include line such as
pymdownx's `--8<--` shows only itself there):

    <!-- inline: examples/python/quota.py -->
    ```python
    ...the text of examples/python/quota.py...
    ```

The examples themselves are built and run by ctest (examples/docs/*.cpp) and pytest
(examples/python/*.py); tests/python/test_examples.py checks that every block equals its file.

Usage:
    /usr/bin/python3 tools/inline_examples.py          # rewrite every marked block from its file
    /usr/bin/python3 tools/inline_examples.py --check  # exit 1 when a block differs from its file
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A marker, then a fenced block (any language), up to the closing fence at the start of a line.
BLOCK = re.compile(r"(<!-- inline: (?P<path>[^ ]+) -->\n```(?P<lang>\w*)\n)(?P<code>.*?)(^```$)", re.S | re.M)


def blocks(text: str):
    """(path, code) of every marked block of a page."""
    return [(m.group("path"), m.group("code")) for m in BLOCK.finditer(text)]


def inlined(text: str) -> str:
    """The page with every marked block replaced by its file's current text."""
    def replace(match: re.Match) -> str:
        code = (ROOT / match.group("path")).read_text()
        return match.group(1) + (code if code.endswith("\n") else code + "\n") + match.group(5)
    return BLOCK.sub(replace, text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a block differs from its file")
    args = parser.parse_args()
    stale = []
    for page in PAGES:
        text = page.read_text()
        new = inlined(text)
        if new != text:
            stale.append(page.relative_to(ROOT))
            if not args.check:
                page.write_text(new)
    if args.check and stale:
        print(f"stale example blocks in {', '.join(map(str, stale))}: run tools/inline_examples.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
