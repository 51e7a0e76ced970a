"""No camera connected: the device list is empty and a pipeline started
without a file, or for a serial number, raises what pyrealsense2 raises."""
import pyrealsense2 as rs


def outcome(call):
    try:
        call()
    except Exception as e:  # the kind and the words are the result
        return type(e).__name__, str(e)
    return "no error"


ctx = rs.context()
by_serial = rs.config()
by_serial.enable_device("123456789")
with_stream = rs.config()
with_stream.enable_stream(rs.stream.depth, 640, 480, rs.format.z16, 30)
results = {
    "devices": len(ctx.query_devices()),
    "sensors": len(ctx.query_all_sensors()),
    "start": outcome(lambda: rs.pipeline().start()),
    "start_serial": outcome(lambda: rs.pipeline(ctx).start(by_serial)),
    "start_stream": outcome(lambda: rs.pipeline().start(with_stream)),
}
