#!/usr/bin/env python3
"""The devices librealsense (pyrealsense2, 2.55 or 2.59) sees with the given
recordings loaded as devices, the judge of `rsbag devices --json`.

Usage:
    python3 rs_devices.py FILE [FILE ...]      # the devices, as JSON
    python3 rs_devices.py --paths              # {"library", "libpython"}

Prints {"version", "devices": [{"info", "sensors": [{"info", "profiles",
"options"}]}]} in `rsbag devices --json`'s shape, names as pyrealsense2's
enum names (`serial_number`, `depth`, `z16`, `depth_units`,
`brown_conrady`): the test compares them with rsbag's librealsense names
lower-cased with underscores. --paths: the extension module that exports
librealsense's C API, and the libpython it needs loaded first.
"""

import json
import os
import sys
import sysconfig

import pyrealsense2 as rs


def name(value):
    return str(value).split(".")[-1]


def camera_info(thing):
    return {name(ci): thing.get_info(ci) for ci in rs.camera_info.__members__.values()
            if thing.supports(ci)}


def profile(p):
    out = {"stream": name(p.stream_type()), "index": p.stream_index(),
           "format": name(p.format()), "fps": p.fps(), "unique_id": p.unique_id(),
           "default": p.is_default(), "resolution": None, "intrinsics": None}
    if p.is_video_stream_profile():
        v = p.as_video_stream_profile()
        out["resolution"] = [v.width(), v.height()]
        try:
            i = v.get_intrinsics()
        except RuntimeError:
            return out
        out["intrinsics"] = {"ppx": i.ppx, "ppy": i.ppy, "fx": i.fx, "fy": i.fy,
                             "model": name(i.model), "coeffs": list(i.coeffs)}
    return out


def options(sensor):
    out = []
    for o in sensor.get_supported_options():
        r = sensor.get_option_range(o)
        out.append({"name": name(o), "value": sensor.get_option(o), "min": r.min,
                    "max": r.max, "step": r.step, "default": r.default,
                    "read_only": sensor.is_option_read_only(o)})
    return out


def main():
    if sys.argv[1:] == ["--paths"]:
        libpython = os.path.join(sysconfig.get_config_var("LIBDIR"),
                                 sysconfig.get_config_var("INSTSONAME"))
        print(json.dumps({"library": rs.pyrealsense2.__file__, "libpython": libpython}))
        return
    ctx = rs.context()
    # Kept: librealsense keeps a loaded device while its handle lives.
    loaded = [ctx.load_device(f) for f in sys.argv[1:]]
    devices = [{"info": camera_info(d),
                "sensors": [{"info": camera_info(s), "profiles": [profile(p) for p in s.get_stream_profiles()],
                             "options": options(s)} for s in d.query_sensors()]}
               for d in ctx.query_devices()]
    print(json.dumps({"version": rs.__version__ if hasattr(rs, "__version__") else None,
                      "devices": devices, "loaded": len(loaded)}))


if __name__ == "__main__":
    main()
