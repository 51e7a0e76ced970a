"""The type stubs match the module and type the README's and the guide's examples
(check_typing.py: mypy --strict on the examples, stubtest on the stubs).
scripts/test-python.sh installs mypy; elsewhere these skip without it."""

import pytest

import check_typing

pytest.importorskip("mypy", reason="mypy checks the stubs (scripts/test-python.sh installs it)")


def test_the_readme_examples_are_extracted():
    blocks = check_typing.examples()
    codes = "\n".join(code for _, _, code in blocks)
    assert "rsbag.open(" in codes and "rsbag.Writer(" in codes
    assert "rsbag.parallel.map_frames(" in codes
    # pyrealsense2's own code (the pattern in "rsbag's own pipeline") is not ours; the
    # same kind of code through rsbag.pyrealsense2 ("Change the import") is.
    assert "import rsbag.pyrealsense2 as rs" in codes
    assert "pipeline.get_active_profile().get_device().as_playback()" not in codes


def test_the_readme_examples_pass_mypy_strict():
    assert check_typing.check_readme() == 0


def test_the_stubs_match_the_module():
    assert check_typing.check_stubs() == 0
