#!/usr/bin/env bash
# compare-llvmpipe.sh — SplatFrame against Mesa llvmpipe (../shared/bench glref), interleaved,
# same files, cameras and size. Prints each side's median of per-run medians and the ratio
# glref/splatframe (> 1 = SplatFrame is faster).
#
#   Scripts/compare-llvmpipe.sh [--install] [--rounds R] [--frames N] [--warmup M] [--cases a,b,…]
#   cases: bunny, bunny-sub2, fruit_drops, synth150k, synth1m (default: all)
#   env:   SHARED (../shared), GLREF_DIR (/tmp/glref), WORK (/tmp/splatframe-compare), SKIP_BUILD=1
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
GLREF_DIR=${GLREF_DIR:-/tmp/glref}
WORK=${WORK:-/tmp/splatframe-compare}
ROUNDS=3 FRAMES=20 WARMUP=3 THREADS=2
CASES=bunny,bunny-sub2,fruit_drops,synth150k,synth1m
INSTALL=0
while [ $# -gt 0 ]; do
    case "$1" in
        --install) INSTALL=1 ;;
        --rounds) ROUNDS=$2; shift ;;
        --frames) FRAMES=$2; shift ;;
        --warmup) WARMUP=$2; shift ;;
        --cases) CASES=$2; shift ;;
        -h|--help) sed -n 2,9p "$0"; exit 0 ;;
        *) echo "compare-llvmpipe.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

if [ "$INSTALL" = 1 ]; then
    apt-get install -y gcc make libegl-dev libopengl-dev libgl-dev libpng-dev libegl-mesa0 libgl1-mesa-dri python3-numpy
fi
GLREF=$GLREF_DIR/glref
if [ ! -x "$GLREF" ]; then            # built outside the project tree
    mkdir -p "$GLREF_DIR" && cp -r "$SHARED/bench/." "$GLREF_DIR/" && make -C "$GLREF_DIR" >&2
fi
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    (cd "$ROOT" && nice -n 10 swift build -c release >&2)
fi
SF=$ROOT/.build/release/splatframe
mkdir -p "$WORK"
BENCH=$SHARED/bench
BUNNY=$SHARED/testdata/meshes/bun_zipper_draco_binary.ply

# case → "kind file camera glref-extra splatframe-extra"; splat cases draw the whole capture
# (--splat-budget none), as glref does: a budget would compare different frames.
spec() {
    case "$1" in
        bunny)       echo "mesh $BUNNY $BENCH/cams/bunny.json --two-sided --two-sided" ;;
        bunny-sub2)  echo "mesh $WORK/bunny_sub2.ply $BENCH/cams/bunny.json --two-sided --two-sided" ;;
        fruit_drops) echo "splat $SHARED/testdata/splats/fruit_drops_minimal.ply $BENCH/cams/fruit_drops.json - --splat-budget none" ;;
        synth150k)   echo "splat $WORK/synth_150000.ply $BENCH/cams/synth.json --vertexid --splat-budget none" ;;
        synth1m)     echo "splat $WORK/synth_1000000.ply $BENCH/cams/synth.json --vertexid --splat-budget none" ;;
        *) echo "compare-llvmpipe.sh: unknown case $1" >&2; exit 2 ;;
    esac
}
IFS=, read -r -a CASE_LIST <<< "$CASES"
for c in "${CASE_LIST[@]}"; do
    case "$c" in
        bunny-sub2) [ -f "$WORK/bunny_sub2.ply" ] || python3 "$BENCH/subdivide.py" "$BUNNY" "$WORK/bunny_sub2.ply" --levels 2 >&2 ;;
        synth150k)  [ -f "$WORK/synth_150000.ply" ] || python3 "$BENCH/gen_splats.py" 150000 "$WORK/synth_150000.ply" >&2 ;;
        synth1m)    [ -f "$WORK/synth_1000000.ply" ] || python3 "$BENCH/gen_splats.py" 1000000 "$WORK/synth_1000000.ply" >&2 ;;
    esac
done

RESULTS=$WORK/results.tsv
: > "$RESULTS"
for round in $(seq 1 "$ROUNDS"); do
    for c in "${CASE_LIST[@]}"; do
        read -r kind file cam gextra sextra <<< "$(spec "$c")"
        [ "$gextra" = - ] && gextra=""
        [ "$sextra" = - ] && sextra=""
        # glref first on odd rounds, splatframe first on even rounds (interleaved, alternating order).
        run_glref() {
            local line
            line=$(LP_NUM_THREADS=$THREADS "$GLREF" "$kind" "$file" "$cam" --frames "$FRAMES" --warmup "$WARMUP" $gextra)
            echo "$line" >&2
            local ms=${line##*median_ms=}; ms=${ms%% *}
            local size=$(echo "$line" | sed -n 's/.*\(tris\|splats\)=\([0-9]*\).*/\2/p')
            printf '%s\tglref\t%s\t%s\n' "$c" "$ms" "$size" >> "$RESULTS"
        }
        run_sf() {
            local json=$WORK/sf_${c}_$round.json
            "$SF" bench "$file" --camera "$cam" --threads "$THREADS" --frames "$FRAMES" --warmup "$WARMUP" $sextra --json "$json" > "$WORK/sf_${c}_$round.txt"
            head -1 "$WORK/sf_${c}_$round.txt" >&2
            python3 - "$json" "$c" >> "$RESULTS" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"{sys.argv[2]}\tsplatframe\t{r['frame']['median']:.3f}\t{r['primitives']}")
PY
        }
        echo "round $round/$ROUNDS: $c" >&2
        if [ $((round % 2)) = 1 ]; then run_glref; run_sf; else run_sf; run_glref; fi
    done
done

python3 - "$RESULTS" "$ROUNDS" "$FRAMES" <<'PY'
import sys, statistics
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
cases = list(dict.fromkeys(r[0] for r in rows))
print(f"llvmpipe (glref, LP_NUM_THREADS=2) vs splatframe bench --camera (2 threads), 1280x720, "
      f"median of {sys.argv[2]} interleaved runs x {sys.argv[3]} frames")
print(f"{'case':<13}{'size':>11}{'glref ms':>11}{'splatframe ms':>15}{'ratio':>8}   (ratio = glref / splatframe; > 1 = splatframe faster)")
for c in cases:
    g = [float(r[2]) for r in rows if r[0] == c and r[1] == "glref"]
    s = [float(r[2]) for r in rows if r[0] == c and r[1] == "splatframe"]
    size = next((r[3] for r in rows if r[0] == c and r[1] == "splatframe"), "?")
    gm, sm = statistics.median(g), statistics.median(s)
    print(f"{c:<13}{size:>11}{gm:>11.1f}{sm:>15.1f}{gm / sm:>8.2f}")
PY
