#!/usr/bin/env bash
# compare-lod.sh — our level-of-detail tree against splat-transform's on the playbot streamed
# SOG (../shared/testdata), at equal splat budgets: the capture's finest level is flattened
# (`convert … flat.ply`), rebuilt with our builder (`convert flat.ply ours/lod-meta.json`,
# written and read back), and both trees — and a uniform random subset of B splats, the
# floor — are rendered with `render --camera --splat-budget B` from three look-at cameras;
# each frame's PSNR is taken against the whole capture's from the same camera. Prints a
# Markdown table: splats drawn and PSNR (dB) per tree, view and budget.
#
#   Scripts/compare-lod.sh [--budgets 250000,125000,50000,31000] [--bench]
#   --bench also times each tree (`bench --camera --splat-budget B`, median of 20 frames).
#   env: SHARED (../shared), WORK (/tmp/splatframe-lod-compare), SKIP_BUILD=1
# Needs python3 with numpy (the cameras: ../shared/bench/camera.py) and ImageMagick's compare.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
WORK=${WORK:-/tmp/splatframe-lod-compare}
BUDGETS=250000,125000,50000,31000
BENCH=0
while [ $# -gt 0 ]; do
    case "$1" in
        --budgets) BUDGETS=$2; shift ;;
        --bench) BENCH=1 ;;
        -h|--help) sed -n 2,13p "$0"; exit 0 ;;
        *) echo "compare-lod.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

ST=$SHARED/testdata/splats/sog/playbot-lod/lod-meta.json
if [ ! -f "$ST" ]; then
    echo "compare-lod.sh: $ST not found (the playbot streamed SOG of ../shared/testdata)" >&2
    exit 2
fi
command -v compare >/dev/null || { echo "compare-lod.sh: needs ImageMagick's compare" >&2; exit 2; }
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    (cd "$ROOT" && nice -n 10 swift build -c release --product splatframe >&2)
fi
SF=$ROOT/.build/release/splatframe
mkdir -p "$WORK"

# The capture's finest level as one cloud, and our tree built from it.
[ -f "$WORK/flat.ply" ] || "$SF" convert "$ST" "$WORK/flat.ply" >&2
[ -f "$WORK/ours/lod-meta.json" ] || "$SF" convert "$WORK/flat.ply" "$WORK/ours/lod-meta.json" --lod-levels 7 >&2

# Look-at cameras around the robot (the capture is y-down: up is −y; it stands on y ≈ 0):
# front at 2.6 m, the side at 2.6 m, and close in front at 0.9 m.
cams="front:0,-1.2,2.6 side:2.6,-1.2,0 close:0,-0.7,0.9"
for c in $cams; do
    name=${c%%:*}; IFS=, read -r x y z <<< "${c#*:}"
    python3 "$SHARED/bench/camera.py" lookat --eye "$x" "$y" "$z" --target 0 -0.45 0 --up 0 -1 0 --fovy 50 \
        --size 1280x720 -o "$WORK/$name.json"
done

# A uniform random subset of N splats of flat.ply (seeded), written as a binary PLY.
subset() {
    python3 - "$WORK/flat.ply" "$1" "$2" <<'PY'
import sys, numpy as np
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(src, 'rb').read()
end = data.index(b'end_header\n') + len(b'end_header\n')
header = data[:end].decode('ascii').splitlines()
sizes = {'float': 4, 'float32': 4, 'double': 8, 'uchar': 1, 'uint8': 1, 'int': 4, 'uint': 4, 'short': 2, 'ushort': 2}
count = next(int(l.split()[2]) for l in header if l.startswith('element vertex'))
stride = sum(sizes[l.split()[1]] for l in header if l.startswith('property'))
rows = np.frombuffer(data, np.uint8, count * stride, end).reshape(count, stride)
pick = np.sort(np.random.default_rng(7).choice(count, size=min(n, count), replace=False))
head = '\n'.join(f'element vertex {len(pick)}' if l.startswith('element vertex') else l for l in header) + '\n'
open(out, 'wb').write(head.encode('ascii') + rows[pick].tobytes())
PY
}

psnr() { { compare -metric PSNR "$1" "$2" null: 2>&1 || true; } | awk '{printf "%.2f", $1}'; }
drawn() { sed -n 's/.*(\([0-9]*\) primitives).*/\1/p' | tail -1; }
bench_ms() {
    "$SF" bench "$1" --camera "$2" --splat-budget "$3" --frames 20 --json "$WORK/bench.json" >/dev/null 2>&1
    python3 -c "import json,sys; print('%.1f' % json.load(open(sys.argv[1]))['results'][0]['frame']['median'])" "$WORK/bench.json"
}

echo "| view, budget | splat-transform: splats, dB | ours: splats, dB | random: splats, dB |"
echo "|---|---|---|---|"
IFS=, read -r -a budgets <<< "$BUDGETS"
for c in $cams; do
    name=${c%%:*}; cam=$WORK/$name.json
    "$SF" render "$WORK/flat.ply" --camera "$cam" --splat-budget none --out "$WORK/$name-whole.png" >/dev/null 2>&1
    for b in "${budgets[@]}"; do
        st_n=$("$SF" render "$ST" --camera "$cam" --splat-budget "$b" --out "$WORK/$name-st-$b.png" 2>&1 | drawn)
        ours_n=$("$SF" render "$WORK/ours/lod-meta.json" --camera "$cam" --splat-budget "$b" \
                     --out "$WORK/$name-ours-$b.png" 2>&1 | drawn)
        [ -f "$WORK/random-$b.ply" ] || subset "$b" "$WORK/random-$b.ply"
        rnd_n=$("$SF" render "$WORK/random-$b.ply" --camera "$cam" --splat-budget none \
                    --out "$WORK/$name-random-$b.png" 2>&1 | drawn)
        st="$st_n, $(psnr "$WORK/$name-st-$b.png" "$WORK/$name-whole.png")"
        ours="$ours_n, $(psnr "$WORK/$name-ours-$b.png" "$WORK/$name-whole.png")"
        if [ "$BENCH" = 1 ]; then
            st="$st, $(bench_ms "$ST" "$cam" "$b") ms"
            ours="$ours, $(bench_ms "$WORK/ours/lod-meta.json" "$cam" "$b") ms"
        fi
        echo "| $name $b | $st | $ours | $rnd_n, $(psnr "$WORK/$name-random-$b.png" "$WORK/$name-whole.png") |"
    done
done
