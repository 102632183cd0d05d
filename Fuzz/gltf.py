#!/usr/bin/env python3
"""Fuzzes glTF import through the real binary: mutates seed .glb/.gltf files (byte changes, runs of
0xFF, truncations, JSON numbers replaced by extreme ones) and runs `splatframe info` on each.
Every run must end with status 0, or 2 and one stderr line; anything else (a signal, a hang, more
lines) is kept in Fuzz/artifacts/gltf/. Crashes *inside* the importer child are Assimp's and are
only counted: the parent turns them into one line.
Usage: Fuzz/gltf.py SECONDS SPLATFRAME SEED_FILE..."""
import os, random, re, shutil, subprocess, sys, tempfile, time

seconds, binary, seeds = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
rng = random.Random(int(os.environ.get("FUZZ_SEED", "1")))
root = os.path.dirname(os.path.abspath(__file__))
artifacts = os.path.join(root, "artifacts", "gltf")
work = tempfile.mkdtemp(prefix="splatframe-gltf-fuzz-")
extremes = [b"0", b"-1", b"4294967295", b"2147483648", b"1e39", b"-1e39", b"99999999999", b"3", b"5125", b"0.0"]
counts = {"ok": 0, "refused": 0, "child crashed": 0, "child timed out": 0, "bad": 0}

def mutate(data: bytes) -> bytes:
    b = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        for _ in range(rng.randrange(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
    elif kind == 1:
        at = rng.randrange(max(1, len(b) - 16))
        b[at:at + 16] = b"\xff" * 16
    elif kind == 2:
        b = b[:rng.randrange(len(b))]
    else:
        numbers = [m for m in re.finditer(rb"-?\d+(\.\d+)?", bytes(b[:200000]))]
        for m in rng.sample(numbers, min(len(numbers), rng.randrange(1, 4))):
            b[m.start():m.end()] = rng.choice(extremes) + b" " * 0
            break
    return bytes(b)

deadline = time.time() + seconds
n = 0
while time.time() < deadline:
    seed = rng.choice(seeds)
    ext = os.path.splitext(seed)[1]
    case = os.path.join(work, f"case{ext}")
    # keep the seed's neighbours (.bin, pictures) beside the mutant
    for f in os.listdir(os.path.dirname(seed)):
        if f != os.path.basename(seed) and not os.path.exists(os.path.join(work, f)):
            src = os.path.join(os.path.dirname(seed), f)
            if os.path.isfile(src) and os.path.getsize(src) < 50_000_000:
                shutil.copy(src, work)
    with open(seed, "rb") as fh:
        data = mutate(fh.read())
    with open(case, "wb") as fh:
        fh.write(data)
    try:
        r = subprocess.run([binary, "info", case], capture_output=True, timeout=300)
        err = r.stderr.decode(errors="replace").strip().splitlines()
        if r.returncode == 0:
            counts["ok"] += 1
        elif r.returncode == 2 and len(err) == 1:
            counts["child crashed" if "crashed on this file" in err[0] else "child timed out" if "took longer" in err[0] else "refused"] += 1
        else:
            counts["bad"] += 1
    except subprocess.TimeoutExpired:
        counts["bad"] += 1
        r = None
    if counts["bad"] and (r is None or not (r.returncode in (0, 2))):
        os.makedirs(artifacts, exist_ok=True)
        shutil.copy(case, os.path.join(artifacts, f"bad-{n}{ext}"))
    n += 1
print(f"gltf fuzz: {n} files in {seconds:.0f} s: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if counts["bad"] else 0)
