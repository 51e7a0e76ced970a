#!/usr/bin/env python3
"""Read .npy files with numpy and print each as one JSON line: {"file",
"dtype" (numpy's name: float32, uint16), "shape", "values" (row-major)}.

Usage:
    python3 npy_read.py FILE.npy...
"""

import json
import sys

import numpy as np


def main():
    for path in sys.argv[1:]:
        array = np.load(path, allow_pickle=False)
        sys.stdout.write(json.dumps({"file": path, "dtype": str(array.dtype),
                                     "shape": list(array.shape),
                                     "values": array.ravel().tolist()}) + "\n")


if __name__ == "__main__":
    main()
