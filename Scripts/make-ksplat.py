#!/usr/bin/env python3
"""Writes a GaussianSplats3D `.ksplat` from a 3DGS PLY, for SplatFrame's tests.

An independent writer: it follows the layout of mkkellogg/GaussianSplats3D's
SplatBuffer.generateFromUncompressedSplatArrays (src/loaders/SplatBuffer.js, util/create-ksplat.js)
but shares no code with our Swift reader.

  make-ksplat.py IN.ply OUT.ksplat [--level 0|1|2] [--sh-degree N] [--alpha-threshold A]
                 [--block-size S] [--bucket-size B] [--section-size N] [--order ORDER.txt]

Layout (little-endian):
  header, 4096 bytes: u8 version major (0), u8 minor (1), u32@4 max sections, u32@8 sections,
  u32@12 max splats, u32@16 splats, u16@20 compression level, f32@24..32 scene centre,
  f32@36 / f32@40 SH range for level 2 (min, max).
  section headers, 1024 bytes each: u32@0 splats, u32@4 max splats, u32@8 bucket size,
  u32@12 bucket count, f32@16 bucket block size, u16@20 bucket storage bytes (12),
  u32@24 compression scale range (32767), u32@28 storage bytes, u32@32 full buckets,
  u32@36 partially filled buckets, u16@40 SH degree.
  sections: u32 partial-bucket lengths, f32×3 bucket centres, then the splats:
    level 0: f32 centre×3, f32 scale×3, f32 rotation w x y z, u8 RGBA, f32 SH×n
    level 1: u16 centre×3 (bucket-relative), f16 scale×3, f16 rotation×4, u8 RGBA, f16 SH×n
    level 2: as level 1 with u8 SH×n over the header's SH range
  SH per splat: band 1 as R(3) G(3) B(3), band 2 as R(5) G(5) B(5); band 3 (degree 3, which
  GaussianSplats3D sizes but never fills) as R(7) G(7) B(7).
Splats are sorted by their clamped distance from the scene centre (the JS partitioner), split
into sections, and grouped into buckets (full buckets first, then partial ones by block id);
--order writes the source row of each stored splat, one per line.
"""
import argparse
import struct

import numpy as np

from ply_floats import read_ply

SH_C0 = 0.28209479177387814
COMPONENTS = {0: 0, 1: 9, 2: 24, 3: 45}


def source_splats(ply, n, degree):
    pos = np.stack([ply["x"], ply["y"], ply["z"]], 1)
    scale = np.exp(np.stack([ply["scale_0"], ply["scale_1"], ply["scale_2"]], 1))
    rot = np.stack([ply["rot_0"], ply["rot_1"], ply["rot_2"], ply["rot_3"]], 1)   # w x y z
    rot /= np.linalg.norm(rot, axis=1, keepdims=True)
    dc = np.stack([ply["f_dc_0"], ply["f_dc_1"], ply["f_dc_2"]], 1)
    rgb = np.clip(np.floor((0.5 + SH_C0 * dc) * 255), 0, 255)
    alpha = np.clip(np.floor(1 / (1 + np.exp(-ply["opacity"])) * 255), 0, 255)
    per_channel = sum(1 for k in ply if k.startswith("f_rest_")) // 3
    sh = np.zeros((n, COMPONENTS[degree]))
    base, start = 0, 0
    for band, count in ((1, 3), (2, 5), (3, 7)):
        if band > degree:
            break
        for c in range(3):
            for i in range(count):
                sh[:, base + c * count + i] = ply["f_rest_%d" % (c * per_channel + start + i)]
        base += 3 * count
        start += count
    return pos, scale, rot, np.concatenate([rgb, alpha[:, None]], 1), sh


def buckets_of(pos, block, bucket_size):
    lo = pos.min(0)
    dims = pos.max(0) - lo
    yb, zb = int(np.ceil(dims[1] / block)), int(np.ceil(dims[2] / block))
    full, partial = [], {}
    for i, p in enumerate(pos):
        xyz = np.floor((p - lo) / block)
        centre = xyz * block + lo + block / 2
        bid = int(xyz[0]) * (yb * zb) + int(xyz[1]) * zb + int(xyz[2])
        b = partial.get(bid)
        if b is None:
            b = partial[bid] = {"splats": [], "centre": centre}
        b["splats"].append(i)
        if len(b["splats"]) >= bucket_size:
            full.append(b)
            partial[bid] = None
    rest = [partial[k] for k in sorted(partial) if partial[k] is not None]
    return full, rest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ply")
    ap.add_argument("out")
    ap.add_argument("--level", type=int, default=0, choices=(0, 1, 2))
    ap.add_argument("--sh-degree", type=int, default=0, choices=(0, 1, 2, 3))
    ap.add_argument("--alpha-threshold", type=int, default=1)
    ap.add_argument("--block-size", type=float, default=5.0)
    ap.add_argument("--bucket-size", type=int, default=256)
    ap.add_argument("--section-size", type=int, default=0)
    ap.add_argument("--order")
    a = ap.parse_args()

    ply, n = read_ply(a.ply)
    pos, scale, rot, rgba, sh = source_splats(ply, n, a.sh_degree)
    keep = np.nonzero(rgba[:, 3] >= a.alpha_threshold)[0]
    # The JS partitioner: sort by the squared length of the centre floored to 0.5 m cells.
    cell = np.floor(pos[keep] / 0.5) * 0.5
    keep = keep[np.argsort((cell ** 2).sum(1), kind="stable")]
    size = a.section_size if a.section_size > 0 else max(1, len(keep))
    sections = [keep[s:s + size] for s in range(0, len(keep), size)] or [keep]

    ncomp = COMPONENTS[a.sh_degree]
    sh_min = float(sh.min()) if sh.size else -1.5
    sh_max = float(sh.max()) if sh.size else 1.5
    if sh_max <= sh_min:
        sh_min, sh_max = -1.5, 1.5
    per_splat = (44 + 4 * ncomp) if a.level == 0 else (24 + (2 if a.level == 1 else 1) * ncomp)
    scale_range = 32767
    bodies, heads, order = [], [], []
    for rows in sections:
        full, partial = buckets_of(pos[rows], a.block_size, a.bucket_size)
        buckets = full + partial
        sf = scale_range / (a.block_size / 2)
        body = bytearray()
        if a.level >= 1:
            body += b"".join(struct.pack("<I", len(b["splats"])) for b in partial)
            body += b"".join(struct.pack("<3f", *b["centre"]) for b in buckets)
        for b in buckets:
            for local in b["splats"]:
                i = rows[local]
                order.append(int(i))
                if a.level == 0:
                    body += struct.pack("<3f", *pos[i]) + struct.pack("<3f", *scale[i]) + struct.pack("<4f", *rot[i])
                    body += bytes(int(v) for v in rgba[i]) + struct.pack("<%df" % ncomp, *sh[i])
                else:
                    q = np.clip(np.floor((pos[i] - b["centre"]) * sf + 0.5) + scale_range, 0, 2 * scale_range + 1)
                    body += struct.pack("<3H", *q.astype(int))
                    body += scale[i].astype("<f2").tobytes() + rot[i].astype("<f2").tobytes()
                    body += bytes(int(v) for v in rgba[i])
                    if a.level == 1:
                        body += sh[i].astype("<f2").tobytes()
                    else:
                        u = np.clip(np.floor((np.clip(sh[i], sh_min, sh_max) - sh_min) / (sh_max - sh_min) * 255), 0, 255)
                        body += bytes(int(v) for v in u)
        head = bytearray(1024)
        lv = a.level >= 1
        struct.pack_into("<4I", head, 0, len(rows), len(rows), a.bucket_size if lv else 0, len(buckets) if lv else 0)
        struct.pack_into("<f", head, 16, a.block_size if lv else 0.0)
        struct.pack_into("<H", head, 20, 12 if lv else 0)
        struct.pack_into("<4I", head, 24, scale_range if lv else 0, len(body), len(full) if lv else 0, len(partial) if lv else 0)
        struct.pack_into("<H", head, 40, a.sh_degree)
        assert len(body) == len(rows) * per_splat + ((12 * len(buckets) + 4 * len(partial)) if lv else 0)
        heads.append(bytes(head))
        bodies.append(bytes(body))

    header = bytearray(4096)
    struct.pack_into("<BB", header, 0, 0, 1)
    struct.pack_into("<4I", header, 4, len(sections), len(sections), len(order), len(order))
    struct.pack_into("<H", header, 20, a.level)
    struct.pack_into("<3f", header, 24, 0.0, 0.0, 0.0)
    struct.pack_into("<2f", header, 36, sh_min, sh_max)
    with open(a.out, "wb") as f:
        f.write(bytes(header) + b"".join(heads) + b"".join(bodies))
    if a.order:
        with open(a.order, "w") as f:
            f.write("".join("%d\n" % i for i in order))


if __name__ == "__main__":
    main()
