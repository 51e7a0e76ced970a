#!/usr/bin/env python3
"""Play a RealSense .bag with the real librealsense (pyrealsense2 2.55.1),
non-real-time, every sensor started, and report the option changes and
notifications librealsense replays.

Usage:
    python3 rs_events.py BAG --option "Laser Power"

Prints one JSON object:

    {"option_values": [{"stream": "Depth", "index": 0, "frame_number": 7,
                        "sensor": 0, "value": 150.0}, ...],
     "notifications": [{"sensor": 0, "category": "Hardware Error",
                        "severity": "Error", "description": "...",
                        "serialized_data": "..."}, ...]}

`option_values` has, for every frame of every sensor that has the option,
the option's value as that sensor reports it while the frame's callback
runs (librealsense replaces a playback sensor's option when a recorded
change comes up), sorted by stream, index and frame number.
"""

import argparse
import json
import threading
import time

import pyrealsense2 as rs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bag")
    parser.add_argument("--option", required=True, help="librealsense option name, e.g. 'Laser Power'")
    args = parser.parse_args()

    ctx = rs.context()
    dev = ctx.load_device(args.bag)
    playback = dev.as_playback()
    playback.set_real_time(False)

    lock = threading.Lock()
    values, notifications = [], []
    playing, stopped = threading.Event(), threading.Event()

    def on_status(status):
        if status == rs.playback_status.playing:
            playing.set()
        elif status == rs.playback_status.stopped and playing.is_set():
            stopped.set()

    playback.set_status_changed_callback(on_status)
    sensors = list(dev.query_sensors())
    for index, sensor in enumerate(sensors):
        option = next((o for o in sensor.get_supported_options() if str(o) == args.option), None)

        def on_notification(n, index=index):
            with lock:
                notifications.append({
                    "sensor": index,
                    "category": " ".join(w.capitalize() for w in str(n.get_category()).split(".")[-1].split("_")),
                    "severity": " ".join(w.capitalize() for w in str(n.get_severity()).split(".")[-1].split("_")),
                    "description": n.get_description(),
                    "serialized_data": n.get_serialized_data(),
                })

        def on_frame(frame, sensor=sensor, option=option, index=index):
            if option is None:
                return
            profile = frame.get_profile()
            value = sensor.get_option(option)
            with lock:
                values.append({
                    "stream": str(profile.stream_type()).split(".")[-1].capitalize(),
                    "index": profile.stream_index(),
                    "frame_number": frame.get_frame_number(),
                    "sensor": index,
                    "value": value,
                })

        sensor.set_notifications_callback(on_notification)
        profiles = list(sensor.get_stream_profiles())
        if profiles:
            sensor.open(profiles)
            sensor.start(on_frame)

    deadline = time.time() + 120
    while not stopped.is_set() and time.time() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)
    for sensor in sensors:
        try:
            sensor.stop()
            sensor.close()
        except RuntimeError:
            pass
    values.sort(key=lambda v: (v["stream"], v["index"], v["frame_number"]))
    print(json.dumps({"option_values": values, "notifications": notifications}, default=repr))


if __name__ == "__main__":
    main()
