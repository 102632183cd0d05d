#!/usr/bin/env bash
# Checks that a splatframe binary is safe on every x86-64-v3 CPU: no AVX-512 instruction (EVEX
# encoding, a zmm or mask register, or ymm/xmm 16–31) outside the kernels that run only after
# the CPU check (module SplatRenderAVX512, Swift mangling prefix $s17SplatRenderAVX512).
# Usage: Scripts/check-dispatch.sh [BINARY] (default .build/release/splatframe).
# Prints a summary line; exit 0 when clean, 1 with the offending functions listed, 2 on error.
set -euo pipefail
bin=${1:-.build/release/splatframe}
[ -f "$bin" ] || { echo "check-dispatch: $bin: no such file (build it first)" >&2; exit 2; }
command -v objdump >/dev/null || { echo "check-dispatch: objdump not found (apt-get install binutils)" >&2; exit 2; }
objdump -d --insn-width=16 "$bin" | awk -F'\t' '
  /^[0-9a-f]+ <.*>:$/ { sym = $0; sub(/^[0-9a-f]+ </, "", sym); sub(/>:$/, "", sym); next }
  NF >= 3 {
    bytes = $2; sub(/^ +/, "", bytes)
    if (bytes ~ /^(2e |3e |6[4-7] )*62 / || $3 ~ /%zmm|%k[0-7]|mm(1[6-9]|2[0-9]|3[01])([^0-9]|$)/) {
      total++
      if (index(sym, "$s17SplatRenderAVX512") == 1) inside++
      else { outside[sym]++; bad++ }
    }
  }
  END {
    printf "AVX-512 instructions: %d, all in SplatRenderAVX512: %s\n", total, bad ? "no" : "yes"
    for (s in outside) printf "  outside: %d in %s\n", outside[s], s
    exit bad ? 1 : 0
  }'
