"""Run one script of this corpus with `import pyrealsense2` meaning either
librealsense's pyrealsense2 or rsbag.pyrealsense2: the scripts are
pyrealsense2 code, unchanged; this is the one import that differs.

    python run.py {pyrealsense2,rsbag} SCRIPT OUT.pickle [ARGS...]

The script's `results` (a dict of numbers, strings, lists and numpy
arrays) is pickled to OUT.pickle for test_pyrealsense2.py to compare.
"""

import pickle
import runpy
import sys

mode, script, out, *args = sys.argv[1:]
if mode == "rsbag":
    import rsbag.pyrealsense2

    sys.modules["pyrealsense2"] = rsbag.pyrealsense2
else:
    import pyrealsense2  # noqa: F401 (librealsense's own)

    assert "rsbag" not in sys.modules
sys.argv = [script, *args]
results = runpy.run_path(script, run_name="__main__")["results"]
with open(out, "wb") as f:
    pickle.dump(results, f)
