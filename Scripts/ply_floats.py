"""The float properties of a binary little-endian PLY's vertices, for the test-file writers
(make-ksplat.py, gltf_splats_from_ply.py): read_ply(path) -> ({name: float64 array}, count)."""
import sys

import numpy as np


def read_ply(path):
    with open(path, "rb") as f:
        data = f.read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    names, count = [], 0
    for line in data[:end].decode("ascii").splitlines():
        t = line.split()
        if t and t[0] == "format" and t[1:2] != ["binary_little_endian"]:
            sys.exit("only binary little-endian PLY is read")
        elif t[:2] == ["element", "vertex"]:
            count = int(t[2])
        elif t and t[0] == "property":
            if t[1] != "float":
                sys.exit("only float properties are read")
            names.append(t[2])
    rows = np.frombuffer(data, dtype="<f4", count=count * len(names), offset=end).reshape(count, len(names))
    return {n: rows[:, i].astype(np.float64) for i, n in enumerate(names)}, count
