"""rsbag.realsense.DeviceRecorder: a pyrealsense2 software_device recorded
through rsbag's writer (tests/interop/rs_record.py --recorder rsbag, run in
this interpreter, which has pyrealsense2 2.55) plays in the real
librealsense 2.55 with every frame fed: numbers, timestamps, domains, bytes
and metadata (tests/interop/compare_frames.py, the check the sample bags
pass)."""

import json
import subprocess
import sys

import pytest

from references import PYTHON_255, ROOT, judge

INTEROP = ROOT / "tests/interop"


@pytest.mark.parametrize("scenario", ["depth-color", "stereo", "motion", "metadata"])
def test_a_software_device_recorded_through_rsbag_plays_in_librealsense(tmp_path, scenario):
    bag = tmp_path / f"{scenario}.bag"
    recorded = tmp_path / "recorded.json"
    subprocess.run([sys.executable, str(INTEROP / "rs_record.py"), str(bag), "--scenario",
                    scenario, "--recorder", "rsbag", "--json", str(recorded)],
                   check=True, capture_output=True)
    assert bag.exists() and not bag.with_name(bag.name + ".partial").exists()
    metadata = ["--metadata"] if scenario == "metadata" else []
    played = tmp_path / "played.jsonl"
    played.write_text(judge(PYTHON_255, bag, *metadata))
    fed = json.loads(recorded.read_text())["frames"]
    assert len(played.read_text().splitlines()) == len(fed)
    check = subprocess.run([PYTHON_255, str(INTEROP / "compare_frames.py"), str(recorded),
                            str(played)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    # The device as librealsense sees it: the sensors, their profiles and
    # the options they had when opened.
    device = json.loads(judge(PYTHON_255, bag, "--device-json"))
    described = json.loads(recorded.read_text())
    assert [s["name"] for s in device["sensors"]] == [s["name"] for s in described["sensors"]]
    for theirs, ours in zip(device["sensors"], described["sensors"]):
        assert len(theirs["profiles"]) == len(ours["streams"])
        options = {o["option"]: o["value"] for o in theirs["options"]}
        for option in ours["options"]:
            name = option["option"].split(".")[-1].replace("_", " ").title()
            assert options[name] == pytest.approx(option["value"])


def test_an_option_set_through_the_recorder_plays_in_librealsense(tmp_path):
    # The metadata scenario sets Exposure from 100 to 250 right after
    # feeding frame 3 (through recorder.set_option, with --recorder rsbag).
    bag = tmp_path / "options.bag"
    subprocess.run([sys.executable, str(INTEROP / "rs_record.py"), str(bag), "--scenario",
                    "metadata", "--recorder", "rsbag"], check=True, capture_output=True)
    frames = [json.loads(line) for line in judge(PYTHON_255, bag, "--options").splitlines()]
    exposure = {f["frame_number"]: f["options"]["Exposure"] for f in frames}
    assert sorted(exposure) == [1, 2, 3, 4, 5, 6]
    assert [exposure[n] for n in (1, 2)] == [100.0, 100.0]
    assert [exposure[n] for n in (4, 5, 6)] == [250.0, 250.0, 250.0]
