#!/usr/bin/env python3
"""An independent KHR_gaussian_splatting writer: a 3DGS PLY capture to a .glb, following the
extension's ratified text (KhronosGroup/glTF extensions/2.0/Khronos/KHR_gaussian_splatting, as of
63770cc) and not SplatFrame's Swift writer. The tests render its output against the PLY.

What the text says, and what this does:
- attributes POSITION, KHR_gaussian_splatting:ROTATION (unit quaternion, glTF order x, y, z, w),
  :SCALE (linear: exp of the PLY's log scales), :OPACITY (linear 0..1: sigmoid of the PLY's logit),
  :SH_DEGREE_l_COEF_n (VEC3 RGB per coefficient, m from -l to l; the PLY's f_rest_* are channel-major);
  float accessors, POSITION with min/max; COLOR_0 as the fallback (SH0 * 0.282095 + 0.5, clamped,
  sRGB decoded to linear; alpha the opacity); mode POINTS; kernel "ellipse", colorSpace
  "srgb_rec709_display"; the extension in extensionsUsed.
- the frame: glTF is y up, a 3DGS capture y down. --frame data turns the data itself (a half turn
  about x: positions, quaternions, and each SH coefficient by the sign its basis function takes,
  found by evaluating Appendix A's polynomials); --frame node keeps the PLY's values and puts the
  half turn in the node, times an optional extra node transform (--rotate AXIS_X,AXIS_Y,AXIS_Z,DEGREES
  --translate X,Y,Z --scale S), which a reader must apply to centres, covariances and SH.

- --spz: the splats as one SPZ payload, as KHR_gaussian_splatting_compression_spz_2 says (KhronosGroup/glTF
  PR #2531, draft): the extension inside the KHR_gaussian_splatting object with the index of a bufferView
  holding the SPZ bytes, the attributes' accessors without bufferView (count only), the extension used and
  required. The payload follows nianticlabs/spz 2.x's format (NGSP version 3, gzip; load-spz.cc): a 16-byte
  header (magic, version, count, SH degree, 12 fractional bits, flags), then positions as 24-bit fixed
  point, alphas (sigmoid * 255), colours (dc * 0.15 * 255 + 127.5), log scales ((ln s + 10) * 16),
  rotations "smallest three" (2-bit index of the largest component, made positive; 3 x (sign bit, 9 bits
  of |c| / sqrt(1/2))) and SH (round(v * 128) + 128 to the centre of 8-wide buckets for degree 1, 16-wide
  above), coefficient-major with RGB innermost. Packed "from LUF", as the draft requires: the library
  stores RUB, flipping x and z (positions, quaternion x and z, and each SH coefficient by the sign its basis
  function takes under (x, y, z) -> (-x, y, -z)).

Usage: gltf_splats_from_ply.py IN.ply OUT.glb [--frame data|node] [--rotate ...] [--translate ...]
       [--scale S] [--count N] [--degree D] [--spz]
"""
import gzip
import argparse
import json
import math
import struct

import numpy as np

from ply_floats import read_ply

KHR = "KHR_gaussian_splatting"
SPZ = "KHR_gaussian_splatting_compression_spz_2"


def sh_basis(x, y, z):
    """Appendix A's real SH, degrees 1-3, in coefficient order (without constants: signs only matter)."""
    return [-y, z, -x,
            x * y, -(-y * z), 3 * z * z - 1, -(-x * z), x * x - y * y,
            -y * (3 * x * x - y * y), x * y * z, -y * (5 * z * z - 1), z * (5 * z * z - 3),
            -x * (5 * z * z - 1), z * (x * x - y * y), -x * (x * x - 3 * y * y)]


def quat_mul(a, b):
    """Hamilton product of (x, y, z, w) quaternions, arrays of shape (..., 4)."""
    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    return np.stack([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz], axis=-1)


def to_u8(v):
    return np.clip(np.round(v), 0, 255).astype(np.uint8)


def spz_payload(pos, q, scale, opacity, dc, rest, degree):
    """The gzip-compressed NGSP v3 stream of splats given in glTF's frame (LUF for the library)."""
    n = len(pos)
    flip = np.array([-1.0, 1.0, -1.0])                                              # LUF -> RUB
    u = (0.3, 0.5, 0.7)
    sh_signs = np.array(sh_basis(-u[0], u[1], -u[2])) / np.array(sh_basis(*u))
    fb = 12
    fixed = np.round(pos * flip * (1 << fb)).astype(np.int64)
    if np.abs(fixed).max(initial=0) >= 1 << 23:
        raise SystemExit("a centre is too far for 24-bit positions at 12 fractional bits")
    fixed &= 0xFFFFFF
    positions = np.stack([(fixed >> s) & 0xFF for s in (0, 8, 16)], axis=-1).astype(np.uint8)   # n, 3 axes, 3 bytes
    alphas = to_u8(opacity * 255)
    colors = to_u8(dc * (0.15 * 255) + 0.5 * 255)
    scales = to_u8((np.log(scale) + 10) * 16)
    # Quaternion (x, y, z, w): x and z flipped with the axes (w, the angle, stays), then "smallest three".
    r = q / np.linalg.norm(q, axis=1, keepdims=True) * np.array([-1.0, 1.0, -1.0, 1.0])
    largest = np.argmax(np.abs(r), axis=1)
    negate = r[np.arange(n), largest] < 0
    comp = largest.astype(np.uint64)
    for i in range(4):
        keep = largest != i
        negbit = ((r[:, i] < 0) ^ negate).astype(np.uint64)
        mag = np.floor(511 * np.abs(r[:, i]) / math.sqrt(0.5) + 0.5).astype(np.uint64)
        comp = np.where(keep, (comp << np.uint64(10)) | (negbit << np.uint64(9)) | mag, comp)
    rotations = np.stack([(comp >> np.uint64(s)) & np.uint64(0xFF) for s in (0, 8, 16, 24)], axis=-1).astype(np.uint8)
    coefs = (degree + 1) ** 2 - 1
    sh = np.zeros((n, coefs, 3), dtype=np.uint8)
    for k in range(coefs):
        bucket = 8 if k < 3 else 16
        v = np.round(rest[:, k, :] * sh_signs[k] * 128) + 128
        sh[:, k, :] = np.clip((v + bucket // 2) // bucket * bucket, 0, 255).astype(np.uint8)
    header = struct.pack("<IIIBBBB", 0x5053474E, 3, n, degree, fb, 0, 0)
    raw = header + b"".join(x.tobytes() for x in (positions, alphas, colors, scales, rotations, sh))
    return gzip.compress(raw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ply")
    ap.add_argument("out")
    ap.add_argument("--frame", choices=["data", "node"], default="data")
    ap.add_argument("--rotate", default=None)
    ap.add_argument("--translate", default=None)
    ap.add_argument("--scale", type=float, default=None)
    ap.add_argument("--count", type=int, default=None)
    ap.add_argument("--degree", type=int, default=3)
    ap.add_argument("--spz", action="store_true")
    a = ap.parse_args()

    p, n = read_ply(a.ply)
    if a.count is not None:
        n = min(n, a.count)
        p = {k: v[:n] for k, v in p.items()}
    rest_total = len([k for k in p if k.startswith("f_rest_")]) // 3
    file_degree = {0: 0, 3: 1, 8: 2, 15: 3, 24: 4}[rest_total]
    degree = min(file_degree, a.degree, 3)

    pos = np.stack([p["x"], p["y"], p["z"]], axis=1)
    q = np.stack([p["rot_1"], p["rot_2"], p["rot_3"], p["rot_0"]], axis=1)          # PLY w,x,y,z -> x,y,z,w
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    scale = np.exp(np.stack([p["scale_0"], p["scale_1"], p["scale_2"]], axis=1))
    opacity = 1 / (1 + np.exp(-p["opacity"]))
    dc = np.stack([p["f_dc_0"], p["f_dc_1"], p["f_dc_2"]], axis=1)
    coefs = (degree + 1) ** 2 - 1
    # f_rest is channel-major: f_rest[c * rest_total + k].
    rest = np.stack([np.stack([p[f"f_rest_{c * rest_total + k}"] for c in range(3)], axis=1) for k in range(coefs)], axis=1) \
        if coefs else np.zeros((n, 0, 3))

    half_turn = np.array([1.0, 0.0, 0.0, 0.0])                                      # 180 degrees about x, (x, y, z, w)
    node = {"mesh": 0}
    if a.frame == "data":
        pos = pos * np.array([1, -1, -1])
        q = quat_mul(np.broadcast_to(half_turn, q.shape), q)
        u = (0.3, 0.5, 0.7)
        signs = np.array(sh_basis(u[0], -u[1], -u[2])) / np.array(sh_basis(*u))
        rest = rest * signs[:coefs, None]
    else:
        extra = np.array([0.0, 0.0, 0.0, 1.0])
        if a.rotate:
            ax, ay, az, deg = map(float, a.rotate.split(","))
            length = math.sqrt(ax * ax + ay * ay + az * az)
            s = math.sin(math.radians(deg) / 2)
            extra = np.array([ax / length * s, ay / length * s, az / length * s, math.cos(math.radians(deg) / 2)])
        node["rotation"] = [float(v) for v in quat_mul(extra, half_turn)]
        if a.translate:
            node["translation"] = [float(v) for v in a.translate.split(",")]
        if a.scale:
            node["scale"] = [a.scale] * 3

    base = np.clip(dc * 0.28209479177387814 + 0.5, 0, 1)
    linear = np.where(base <= 0.04045, base / 12.92, ((base + 0.055) / 1.055) ** 2.4)
    color = np.concatenate([linear, opacity[:, None]], axis=1)

    blob, views, accessors, attributes = bytearray(), [], [], {}
    if a.spz:
        payload = spz_payload(pos, q, scale, opacity, dc, rest, degree)
        views.append({"buffer": 0, "byteOffset": 0, "byteLength": len(payload)})
        blob.extend(payload)

    def add(name, values, type_, minmax=False):
        values = np.ascontiguousarray(values, dtype="<f4")
        acc = {"componentType": 5126, "count": n, "type": type_}
        if not a.spz:                       # with --spz the values are in the payload: the accessor only counts
            blob.extend(b"\0" * (-len(blob) % 4))
            views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": values.nbytes})
            blob.extend(values.tobytes())
            acc["bufferView"] = len(views) - 1
        if minmax:
            acc["min"] = [float(v) for v in values.min(axis=0)]
            acc["max"] = [float(v) for v in values.max(axis=0)]
        accessors.append(acc)
        attributes[name] = len(accessors) - 1

    add("POSITION", pos, "VEC3", minmax=True)
    add("COLOR_0", color, "VEC4")
    add(f"{KHR}:ROTATION", q, "VEC4")
    add(f"{KHR}:SCALE", scale, "VEC3")
    add(f"{KHR}:OPACITY", opacity, "SCALAR")
    add(f"{KHR}:SH_DEGREE_0_COEF_0", dc, "VEC3")
    k = 0
    for l in range(1, degree + 1):
        for m in range(2 * l + 1):
            add(f"{KHR}:SH_DEGREE_{l}_COEF_{m}", rest[:, k, :], "VEC3")
            k += 1

    ext = {"kernel": "ellipse", "colorSpace": "srgb_rec709_display"}
    if a.spz:
        ext["extensions"] = {SPZ: {"bufferView": 0}}
    doc = {"asset": {"version": "2.0", "generator": "gltf_splats_from_ply.py"},
           "extensionsUsed": [KHR] + ([SPZ] if a.spz else []),
           "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [node],
           "meshes": [{"primitives": [{"mode": 0, "attributes": attributes,
                                       "extensions": {KHR: ext}}]}],
           "buffers": [{"byteLength": len(blob)}], "bufferViews": views, "accessors": accessors}
    if a.spz:
        doc["extensionsRequired"] = [SPZ]
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    blob.extend(b"\0" * (-len(blob) % 4))
    with open(a.out, "wb") as f:
        f.write(struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(text) + 8 + len(blob)))
        f.write(struct.pack("<II", len(text), 0x4E4F534A) + text)
        f.write(struct.pack("<II", len(blob), 0x004E4942) + bytes(blob))


if __name__ == "__main__":
    main()
