#!/usr/bin/env bash
# Builds one libFuzzer harness per SceneIO reader (ASan + coverage) and runs each for SECONDS.
# Usage: Fuzz/run.sh [SECONDS] [READER...]   (readers: ply compressed splat ksplat spz obj stl sog imported gltfsplat)
# (imported: the importer child process's output as the parent decodes it; glTF files themselves
# go through the child process: Fuzz/gltf.sh.)
# Crashes land in Fuzz/artifacts/<reader>/; the corpus in Fuzz/corpus/<reader>/ grows only
# in a scratch copy under .build/fuzz/corpus (the checked-in seeds stay small).
set -euo pipefail
SECONDS_PER=${1:-60}
shift || true
READERS=${*:-ply compressed splat ksplat spz obj stl sog imported gltfsplat}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/.build/fuzz
SWIFTC=${SWIFTC:-swiftc}
mkdir -p "$OUT"
cd "$ROOT"
# Build from a snapshot so edits made while the (long) run goes on can't break or mix builds.
SRC=$OUT/src
rm -rf "$SRC"; mkdir -p "$SRC"
cp -r Sources/RenderCore Sources/JSONInput Sources/Workers Sources/ZipReading Sources/SceneIO Sources/CZlib Sources/CZstd Sources/CWebP Sources/CZip Fuzz/harness "$SRC/"

# RenderCore, JSONInput, Workers and ZipReading as separate modules (the SceneIO sources import them); ASan only.
for m in RenderCore JSONInput Workers ZipReading; do
    "$SWIFTC" -parse-as-library -O -g -sanitize=address -module-name $m -I "$OUT" -I "$SRC/CZip" \
        -emit-module -emit-module-path "$OUT/$m.swiftmodule" \
        -emit-library -static -o "$OUT/lib$m.a" "$SRC"/$m/*.swift
done

for r in $READERS; do
    echo "== building fuzz-$r"
    # SCENEIO_NO_IMAGEIO: OBJ textures are not loaded (no SDL in the fuzz build).
    "$SWIFTC" -parse-as-library -O -g -sanitize=fuzzer,address -D SCENEIO_NO_IMAGEIO \
        -module-name SceneIO -I "$OUT" -L "$OUT" -lRenderCore -lJSONInput -lWorkers -lZipReading \
        -I "$SRC/CZlib" -I "$SRC/CZstd" -I "$SRC/CWebP" -I "$SRC/CZip" -lz -lzstd -lwebp -lzip \
        "$SRC"/SceneIO/*.swift "$SRC/harness/$r.swift" -o "$OUT/fuzz-$r" 2>&1 | grep -v "Cannot export local symbol" || true
    test "$OUT/fuzz-$r" -nt "$SRC/harness/$r.swift"    # fail if this build did not produce a fresh binary
done

for r in $READERS; do
    echo "== running fuzz-$r for ${SECONDS_PER}s"
    mkdir -p "$OUT/corpus/$r" "Fuzz/artifacts/$r"
    cp -n Fuzz/corpus/$r/* "$OUT/corpus/$r/" 2>/dev/null || true
    # -rss_limit_mb / -malloc_limit_mb: a reader that allocates more than the input justifies fails.
    ASAN_OPTIONS=quarantine_size_mb=32:detect_leaks=0 "$OUT/fuzz-$r" "$OUT/corpus/$r" -max_total_time="$SECONDS_PER" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=1 \
        -artifact_prefix="Fuzz/artifacts/$r/" > "$OUT/fuzz-$r.log" 2>&1 || echo "fuzz-$r stopped with findings"
    grep -E "^==[0-9]+==ERROR|SUMMARY|^stat::|Done [0-9]+ runs|Test unit written" "$OUT/fuzz-$r.log" || true
done
