"""The type stubs checked: `mypy --strict` on every ```python example of
README.md and of the guide (docs/src/*.md) that uses rsbag (taken from the
pages themselves, so the check cannot drift from what users read), and mypy's `stubtest` comparing the
stubs with the installed module. Run by scripts/test-python.sh and by
test_typing.py; `python python/tests/check_typing.py` runs both and
exits non-zero on a finding.

An example may use names it takes as given (the frames a Writer example
records); GIVEN declares their types, for an example that uses such a
name without binding it.
"""

import ast
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
# The pages whose examples are checked: the README and the guide's.
PAGES = [README, *sorted((ROOT / "docs/src").glob("*.md"))]
# Where mypy finds what it is told of modules without type information.
CONFIG = ROOT / "python/pyproject.toml"

HEADER = """\
# An example of {page} (block {number}, line {line}), checked by
# python/tests/check_typing.py.
from typing import Iterable, Tuple

import numpy as np
import numpy.typing as npt

import rsbag
import rsbag.parallel
"""

# Names an example may take as given, with their types.
GIVEN = {
    "frames": "Iterable[Tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint8]]]",
}


def examples(pages=None):
    """(page, line, code) of every ```python block of the pages (the
    README's and the guide's) that uses rsbag."""
    found = []
    for page in PAGES if pages is None else pages:
        lines = page.read_text().splitlines()
        start = None
        for number, text in enumerate(lines, 1):
            if start is None and re.fullmatch(r"```python\s*", text):
                start = number
            elif start is not None and text.strip() == "```":
                code = "\n".join(lines[start:number - 1]) + "\n"
                if re.search(r"\brsbag\b", code):
                    found.append((page, start, code))
                start = None
    return found


def given_names(code):
    """The names of GIVEN `code` reads without binding."""
    loaded, stored = set(), set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name):
            (stored if isinstance(node.ctx, (ast.Store, ast.Del)) else loaded).add(node.id)
    return sorted(n for n in GIVEN if n in loaded and n not in stored)


def module_of(number, page, line, code):
    declared = "".join(f"{name}: {GIVEN[name]} = []\n" for name in given_names(code))
    return (HEADER.format(page=page.relative_to(ROOT), number=number, line=line)
            + declared + "\n" + code)


def run(command):
    print("+", " ".join(command), flush=True)
    return subprocess.run(command, cwd=ROOT).returncode


def check_readme(python=sys.executable):
    """mypy --strict on the README's and the guide's examples, each a
    module of its own."""
    blocks = examples()
    assert blocks, "README.md and docs/src have no ```python example using rsbag"
    with tempfile.TemporaryDirectory(prefix="rsbag-readme-") as tmp:
        files = []
        for number, (page, line, code) in enumerate(blocks, 1):
            stem = page.stem.replace("-", "_").lower()
            path = Path(tmp) / f"example_{number}_{stem}_line_{line}.py"
            path.write_text(module_of(number, page, line, code))
            files.append(str(path))
        return run([python, "-m", "mypy", "--strict", "--no-error-summary", "--config-file", str(CONFIG),
                    "--cache-dir", str(ROOT / "target/mypy-cache"), *files])


def check_stubs(python=sys.executable):
    """stubtest: the stubs against the installed extension module, and
    mypy --strict on rsbag.pyrealsense2, which is typed inline (see
    stubtest-allowlist.txt)."""
    stubs = run([python, "-m", "mypy.stubtest", "rsbag", "--mypy-config-file", str(CONFIG),
                 "--allowlist", str(ROOT / "python/tests/stubtest-allowlist.txt")])
    inline = run([python, "-m", "mypy", "--strict", "--config-file", str(CONFIG),
                  "--cache-dir", str(ROOT / "target/mypy-cache"),
                  str(ROOT / "python/pysrc/rsbag/pyrealsense2.py")])
    return stubs or inline


def main():
    failed = [name for name, check in (("README and guide examples (mypy --strict)", check_readme),
                                       ("stubtest", check_stubs)) if check() != 0]
    for name in failed:
        print(f"check_typing: {name} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
