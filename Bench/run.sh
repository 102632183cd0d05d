#!/usr/bin/env bash
# Release-built SceneIO load-speed check (3DGS binary PLY, 1M splats, SH degree 3).
# Usage: Bench/run.sh [SPLATS | FILE...]   — compiles RenderCore + SceneIO + LoadSpeed.swift with -O.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/.build/bench
SWIFTC=${SWIFTC:-swiftc}
mkdir -p "$OUT"
cd "$ROOT"
CPU=()
if [ "$(uname -m)" = x86_64 ]; then CPU=(-target-cpu "${SPLATFRAME_TARGET_CPU:-native}"); fi   # as Package.swift
FLAGS=(-O -wmo -enforce-exclusivity=unchecked "${CPU[@]}")
"$SWIFTC" "${FLAGS[@]}" -parse-as-library -module-name RenderCore -emit-module -emit-module-path "$OUT/RenderCore.swiftmodule" \
    -emit-library -static -o "$OUT/libRenderCore.a" Sources/RenderCore/*.swift
"$SWIFTC" "${FLAGS[@]}" -parse-as-library -D SCENEIO_NO_IMAGEIO -module-name SceneIO -I "$OUT" -L "$OUT" -lRenderCore \
    -I Sources/CZlib -I Sources/CZstd -lz -lzstd Sources/SceneIO/*.swift Bench/LoadSpeed.swift -o "$OUT/load-speed"
"$OUT/load-speed" "${@:-1000000}"
