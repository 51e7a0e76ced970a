"""Run one script of this corpus with `import pyrealsense2` meaning either
librealsense's pyrealsense2 or rsbag.pyrealsense2: the scripts are
pyrealsense2 code, unchanged; this is the one import that differs.

    python run.py {pyrealsense2,rsbag} SCRIPT OUT.pickle [ARGS...]

With RSBAG_PYREALSENSE2_CAMERA=FILE set, both have FILE played as a
connected camera (rsbag.pyrealsense2's test hook, given here to
pyrealsense2 as a context that loads FILE).

The script's `results` (a dict of numbers, strings, lists and numpy
arrays) is pickled to OUT.pickle for test_pyrealsense2.py to compare.
"""

import os
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
    camera = os.environ.get("RSBAG_PYREALSENSE2_CAMERA")
    if camera:
        # rsbag.pyrealsense2's test hook, given to pyrealsense2: every
        # context has the recording as a connected device (librealsense's
        # load_device, rs2_context_add_device).
        class context(pyrealsense2.context):
            def __init__(self):
                super().__init__()
                self.camera = self.load_device(camera)

        pyrealsense2.context = context
sys.argv = [script, *args]
results = runpy.run_path(script, run_name="__main__")["results"]
with open(out, "wb") as f:
    pickle.dump(results, f)
