#!/usr/bin/env python3
"""Compare `rsbag convert` output with what librealsense computed
(rs_process.py process's .npz), frameset by frameset; exit 1 naming the
first difference.

Usage:
    python3 check_processing.py REF.npz depth-to-color DIR   # --to raw --align-to Color
    python3 check_processing.py REF.npz color-to-depth DIR   # --to raw --align-to Depth
    python3 check_processing.py REF.npz ply DIR              # --to ply (binary, coloured)

depth-to-color: Depth_<n>.raw equals rs.align(color)'s depth byte for
byte; color-to-depth: Color_<n>.raw equals rs.align(depth)'s colour; ply:
Depth_<n>.ply holds export_to_ply's vertices (in camera axes: its y and z
negated back) within 1e-5 and exactly its colours.
"""

import sys

import numpy as np


def read_ply(path):
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    header = data[:end].decode()
    assert "format binary_little_endian 1.0" in header, header
    assert "property uchar red" in header, f"{path}: no colour"
    count = int(header.split("element vertex ")[1].split()[0])
    row = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("r", "u1"), ("g", "u1"), ("b", "u1")])
    rows = np.frombuffer(data[end:], dtype=row)
    assert len(rows) == count, f"{path}: {len(rows)} vertices, header says {count}"
    return np.stack([rows["x"], rows["y"], rows["z"]], 1), np.stack([rows["r"], rows["g"], rows["b"]], 1)


def main():
    ref, mode, out = np.load(sys.argv[1]), sys.argv[2], sys.argv[3]
    k = 0
    while f"f{k}_numbers" in ref:
        depth_n, color_n = (int(n) for n in ref[f"f{k}_numbers"])
        if mode == "depth-to-color":
            want = ref[f"f{k}_depth_to_color"]
            got = np.fromfile(f"{out}/Depth_{depth_n:06d}.raw", dtype=np.uint16)
            if not np.array_equal(got, want.reshape(-1)):
                sys.exit(f"frameset {k}: aligned depth #{depth_n} differs from rs.align's")
        elif mode == "color-to-depth":
            want = ref[f"f{k}_color_to_depth"]
            got = np.fromfile(f"{out}/Color_{color_n:06d}.raw", dtype=np.uint8)
            if not np.array_equal(got, want.reshape(-1)):
                sys.exit(f"frameset {k}: aligned colour #{color_n} differs from rs.align's")
        else:
            vertices, colors = read_ply(f"{out}/Depth_{depth_n:06d}.ply")
            want = ref[f"f{k}_ply_vertices"] * np.array([1, -1, -1], dtype=np.float32)
            if vertices.shape != want.shape or not np.allclose(vertices, want, rtol=0, atol=1e-5):
                sys.exit(f"frameset {k}: point cloud #{depth_n} differs from export_to_ply's")
            if not np.array_equal(colors, ref[f"f{k}_ply_colors"]):
                sys.exit(f"frameset {k}: colours of #{depth_n} differ from export_to_ply's")
        k += 1
    if k == 0:
        sys.exit("no frameset in the reference")
    print(f"{k} framesets equal")


if __name__ == "__main__":
    main()
