"""A camera, as pyrealsense2's examples stream one: the devices connected
(info, sensors, profiles with intrinsics, depth scale), one chosen by its
serial number and started, its framesets' frames to numpy, depth in
metres with get_distance, depth aligned to colour and point clouds. The camera is a recording librealsense plays as
a connected device (RSBAG_PYREALSENSE2_CAMERA, which run.py gives
pyrealsense2 too)."""
import numpy as np
import pyrealsense2 as rs

INFO = (rs.camera_info.name, rs.camera_info.serial_number, rs.camera_info.firmware_version,
        rs.camera_info.product_id, rs.camera_info.product_line,
        rs.camera_info.usb_type_descriptor, rs.camera_info.physical_port)


def described(profile):
    out = {"repr": repr(profile), "stream": str(profile.stream_type()),
           "index": profile.stream_index(), "format": str(profile.format()),
           "fps": profile.fps(),
           "default": profile.is_default()}
    if profile.is_video_stream_profile():
        video = profile.as_video_stream_profile()
        i = video.get_intrinsics()
        out["size"] = (video.width(), video.height())
        out["intrinsics"] = (i.width, i.height, i.ppx, i.ppy, i.fx, i.fy, str(i.model),
                             list(i.coeffs))
    return out


ctx = rs.context()
devices = ctx.query_devices()
results = {"count": len(devices), "devices": []}
for dev in devices:
    results["devices"].append({
        "repr": repr(dev),
        "info": {str(i): dev.get_info(i) for i in INFO if dev.supports(i)},
        "sensors": [{"name": s.get_info(rs.camera_info.name),
                     "depth": s.is_depth_sensor(),
                     "profiles": sorted((described(p) for p in s.get_stream_profiles()),
                                        key=lambda p: p["repr"])}
                    for s in dev.query_sensors()],
        "depth_scale": dev.first_depth_sensor().get_depth_scale(),
    })

serial = devices[0].get_info(rs.camera_info.serial_number)
config = rs.config()
config.enable_device(serial)
pipeline = rs.pipeline(ctx)
profile = pipeline.start(config)
results["started"] = {
    "device": profile.get_device().get_info(rs.camera_info.serial_number),
    "streams": sorted(repr(p) for p in profile.get_streams()),
    "depth": described(profile.get_stream(rs.stream.depth)),
}
align = rs.align(rs.stream.color)
cloud = rs.pointcloud()
frames_seen = {}
framesets = []
for _ in range(100):
    ok, frames = pipeline.try_wait_for_frames(3000)
    if not ok:
        break
    framesets.append(sorted((f.get_profile().stream_name(), f.get_frame_number()) for f in frames))
    for f in frames:
        seen = {"timestamp": f.get_timestamp(), "domain": str(f.get_frame_timestamp_domain()),
                "data": np.asanyarray(f.get_data()).copy()}
        if f.is_depth_frame():
            depth = f.as_depth_frame()
            w, h = depth.get_width(), depth.get_height()
            seen["size"] = (w, h)
            seen["units"] = depth.get_units()
            seen["distances"] = [depth.get_distance(x, y)
                                 for y in range(0, h, max(1, h // 5))
                                 for x in range(0, w, max(1, w // 7))]
        frames_seen[f"{f.get_profile().stream_name()} {f.get_frame_number()}"] = seen
    depth, color = frames.get_depth_frame(), frames.get_color_frame()
    if depth and color:
        try:
            extrinsics = depth.get_profile().get_extrinsics_to(color.get_profile())
        except RuntimeError as e:
            # (pyrealsense2's align and pointcloud then pass the frames
            # through unaligned, rsbag's raise: not compared.)
            results["extrinsics"] = str(e)
            continue
        results["extrinsics"] = (list(extrinsics.rotation), list(extrinsics.translation))
        # align-depth2color.py's and the point cloud examples' ways, with
        # the camera's intrinsics and extrinsics.
        aligned = align.process(frames).get_depth_frame()
        cloud.map_to(color)
        points = cloud.calculate(depth)
        frames_seen[f"Processed {depth.get_frame_number()}-{color.get_frame_number()}"] = {
            "aligned": np.asanyarray(aligned.get_data()).copy(),
            "aligned_size": (aligned.get_width(), aligned.get_height()),
            "vertices": np.asanyarray(points.get_vertices(2)).copy(),
            "uv": np.asanyarray(points.get_texture_coordinates(2)).copy(),
        }
pipeline.stop()
results["framesets"] = framesets
results["frames"] = frames_seen
