"""rsbag's processing against the real librealsense 2.55 on recordings it
wrote (tests/interop/rs_process.py: software_device, non-trivial
extrinsics, different depth and colour resolutions and distortion models):
depth aligned to colour and colour aligned to depth equal rs.align's
output byte for byte (no tolerance: rsbag repeats the SSE code's float
operations in the same order); vertices and texture coordinates equal
rs.pointcloud's within 1e-5 (they come out bit-identical; the margin is
the issue's); colours equal what points.export_to_ply writes; deproject
and project equal rs2_deproject_pixel_to_point / rs2_project_point_to_pixel
for every distortion model."""

import subprocess

import numpy as np
import pytest

import rsbag
from references import PYTHON_255, ROOT

SCRIPT = str(ROOT / "tests/interop/rs_process.py")

# (depth model, colour model, depth size, colour size): depth coarser than
# colour (both corners mapped), colour smaller both ways (librealsense's
# bottom-right corner), a special resolution pair, and every model on
# either side.
CASES = [
    ("brown_conrady", "inverse_brown_conrady", "64x48", "96x54"),
    ("inverse_brown_conrady", "modified_brown_conrady", "96x72", "64x36"),
    ("none", "kannala_brandt4", "64x48", "64x48"),
    ("kannala_brandt4", "ftheta", "48x40", "80x60"),
    ("modified_brown_conrady", "brown_conrady", "640x480", "640x360"),
    ("ftheta", "none", "40x30", "120x90"),
]


def reference(tmp_path_factory, case):
    depth_model, color_model, depth_size, color_size = case
    d = tmp_path_factory.mktemp("processing")
    bag, npz = d / "reference.bag", d / "reference.npz"
    subprocess.run([PYTHON_255, SCRIPT, "record", str(bag), "--depth-model", depth_model,
                    "--color-model", color_model, "--depth-size", depth_size,
                    "--color-size", color_size], check=True, capture_output=True)
    subprocess.run([PYTHON_255, SCRIPT, "process", str(bag), str(npz)], check=True,
                   capture_output=True)
    return bag, np.load(npz)


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[2]}-{c[3]}")
def recorded(request, tmp_path_factory):
    return reference(tmp_path_factory, request.param)


def framesets(data):
    k = 0
    while f"f{k}_numbers" in data:
        yield k, {name: data[f"f{k}_{name}"] for name in
                  ("numbers", "depth_to_color", "color_to_depth", "vertices", "texcoords",
                   "ply_vertices", "ply_colors")}
        k += 1


def test_aligned_images_equal_rs_align_byte_for_byte(recorded):
    bag, data = recorded
    recording = rsbag.open(bag)
    alignment = recording.alignment("Depth", "Color")
    compared = 0
    for _, ref in framesets(data):
        depth = recording.frame_by_number("Depth", int(ref["numbers"][0]))
        color = recording.frame_by_number("Color", int(ref["numbers"][1]))
        to_color = alignment.depth_to_other(depth)
        assert to_color.dtype == np.uint16 and to_color.shape == ref["depth_to_color"].shape
        assert np.count_nonzero(ref["depth_to_color"]) > 0
        assert np.array_equal(to_color, ref["depth_to_color"])
        to_depth = alignment.other_to_depth(depth, color)
        assert to_depth.shape == ref["color_to_depth"].shape
        assert np.array_equal(to_depth, ref["color_to_depth"])
        compared += 1
    assert compared >= 3


def test_point_clouds_equal_rs_pointcloud(recorded):
    bag, data = recorded
    recording = rsbag.open(bag)
    cloud = recording.pointcloud("Depth", map_to="Color")
    for _, ref in framesets(data):
        depth = recording.frame_by_number("Depth", int(ref["numbers"][0]))
        color = recording.frame_by_number("Color", int(ref["numbers"][1]))
        vertices, uv = cloud.calculate(depth)
        assert vertices.shape == ref["vertices"].shape
        np.testing.assert_allclose(vertices, ref["vertices"], rtol=0, atol=1e-5)
        np.testing.assert_allclose(uv, ref["texcoords"], rtol=0, atol=1e-5)
        # export_to_ply keeps vertices with a coordinate of at least 1 µm,
        # writes them as (x, -y, -z) and colours them from the texture.
        kept = np.any(np.abs(vertices) >= 1e-6, axis=1)
        assert kept.sum() == len(ref["ply_vertices"]) > 0
        flipped = vertices[kept] * np.array([1, -1, -1], dtype=np.float32)
        np.testing.assert_allclose(flipped, ref["ply_vertices"], rtol=0, atol=1e-5)
        colors = rsbag.PointCloud.colors(np.ascontiguousarray(uv[kept]), color)
        assert np.array_equal(colors, ref["ply_colors"])


def test_an_unmapped_point_cloud_has_no_texture():
    recording = rsbag.open(ROOT / "sample_bags/librealsense-depth-color-lz4.bag")
    vertices, uv = recording.pointcloud().calculate(recording.frame("Depth", 0))
    width, height = recording.frame("Depth", 0).size
    assert vertices.shape == (width * height, 3) and uv is None
    depth = recording.frame("Depth", 0).as_array().reshape(-1)
    units = recording.depth_units()
    assert np.allclose(vertices[:, 2], depth.astype(np.float32) * np.float32(units))


def test_projections_equal_rsutil_for_every_distortion_model(tmp_path):
    npz = tmp_path / "projections.npz"
    subprocess.run([PYTHON_255, SCRIPT, "project", str(npz)], check=True, capture_output=True)
    data = np.load(npz)
    models = {"none": "None", "brown_conrady": "Brown Conrady",
              "inverse_brown_conrady": "Inverse Brown Conrady",
              "modified_brown_conrady": "Modified Brown Conrady",
              "kannala_brandt4": "Kannala Brandt4", "ftheta": "Ftheta"}
    for key, name in models.items():
        ppx, ppy, fx, fy, *coeffs = data[f"{key}_intrinsics"].tolist()
        intrinsics = {"width": 640, "height": 480, "ppx": ppx, "ppy": ppy, "fx": fx, "fy": fy,
                      "model": name, "coeffs": coeffs}
        for pixel, depth, point, projected in zip(data[f"{key}_pixels"], data[f"{key}_depths"],
                                                  data[f"{key}_points"], data[f"{key}_projected"]):
            ours = rsbag.deproject(intrinsics, (float(pixel[0]), float(pixel[1])), float(depth))
            np.testing.assert_allclose(ours, point, rtol=1e-6, atol=1e-6, err_msg=name)
            back = rsbag.project(intrinsics, tuple(float(v) for v in point))
            np.testing.assert_allclose(back, projected, rtol=1e-6, atol=1e-4, err_msg=name)


def test_depth_in_metres_equals_get_distance(tmp_path):
    # librealsense's get_distance at every pixel of the first depth frame.
    bag = ROOT / "sample_bags/librealsense-depth-color-lz4.bag"
    script = ("import sys, numpy as np, pyrealsense2 as rs\n"
              "ctx = rs.context(); dev = ctx.load_device(sys.argv[1])\n"
              "dev.as_playback().set_real_time(False)\n"
              "p = rs.pipeline(ctx); c = rs.config(); c.enable_device_from_file(sys.argv[1], False)\n"
              "p.start(c).get_device().as_playback().set_real_time(False)\n"
              "d = p.wait_for_frames().get_depth_frame(); w, h = d.get_width(), d.get_height()\n"
              "m = np.array([[d.get_distance(x, y) for x in range(w)] for y in range(h)], np.float32)\n"
              "np.save(sys.argv[2], m); print(d.get_frame_number())\n")
    out = tmp_path / "metres.npy"
    number = int(subprocess.run([PYTHON_255, "-c", script, str(bag), str(out)], check=True,
                                capture_output=True, text=True).stdout)
    recording = rsbag.open(bag)
    ours = recording.depth_metres(recording.frame_by_number("Depth", number))
    theirs = np.load(out)
    assert ours.dtype == np.float32 and np.count_nonzero(theirs) > 0
    assert np.array_equal(ours, theirs)


def test_processing_bad_input_raises():
    recording = rsbag.open(ROOT / "sample_bags/librealsense-depth-color-lz4.bag")
    with pytest.raises(rsbag.InvalidArgumentError, match="not Z16"):
        recording.alignment("Color", "Depth")
    alignment = recording.alignment("Depth", "Color")
    with pytest.raises(rsbag.InvalidArgumentError):
        alignment.depth_to_other(recording.frame("Color", 0))
    with pytest.raises(KeyError, match="model"):
        rsbag.deproject({"width": 1}, (0.0, 0.0), 1.0)
