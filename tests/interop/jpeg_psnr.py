#!/usr/bin/env python3
"""The PSNR OpenCV's own JPEG gives frames, as compressed_image_transport
writes them (cv2.imencode of the BGR image at a quality, OpenCV's default
4:2:0 chroma) and its subscriber reads them (cv2.imdecode): the reference
a JPEG export is judged against.

Usage:
    python3 jpeg_psnr.py FRAMES.raw WIDTH HEIGHT QUALITY

FRAMES.raw holds rgb8 frames one after the other. Prints {"min_db",
"mean_db"} over the frames as one JSON object.
"""

import json
import sys

import cv2
import numpy as np


def main():
    path, width, height, quality = sys.argv[1], *map(int, sys.argv[2:5])
    frames = np.fromfile(path, np.uint8).reshape(-1, height, width, 3)
    db = []
    for rgb in frames:
        ok, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR),
                                [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        back = cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_UNCHANGED), cv2.COLOR_BGR2RGB)
        mse = ((back.astype(np.float64) - rgb.astype(np.float64)) ** 2).mean()
        db.append(10 * np.log10(255.0 ** 2 / max(mse, 1e-12)))
    print(json.dumps({"min_db": min(db), "mean_db": sum(db) / len(db)}))


if __name__ == "__main__":
    main()
