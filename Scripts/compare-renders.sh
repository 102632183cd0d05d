#!/usr/bin/env bash
# Renders the demo scenes and the shared captures with two splatframe binaries and reports, per
# frame, whether the PNGs are byte-identical — the check that a refactor changed no picture.
# Usage: Scripts/compare-renders.sh OLD_BINARY NEW_BINARY [OUT_DIR]
set -uo pipefail
old=$1; new=$2; out=${3:-$(mktemp -d)}
cd "$(dirname "$0")/.."
data=../shared/testdata
scenes=(cube Scenes/cube-photos.json Scenes/mixed.json Scenes/demo-object.ply sphere:20000 generate:60k)
for f in "$data"/splats/*.ply "$data"/splats/*.spz "$data"/splats/*.splat "$data"/meshes/*.ply "$data"/meshes/*.obj "$data"/meshes/*.glb; do
  [ -e "$f" ] && scenes+=("$f")
done
for d in "$data"/splats/sog/*; do [ -e "$d" ] && scenes+=("$d"); done
same=0; differ=0; failed=0
for s in "${scenes[@]}"; do
  for budget in default 5000; do
    flags=(); [ "$budget" = default ] || flags=(--splat-budget "$budget")
    name=$(echo "$s-$budget" | tr '/:' '__')
    "$old" render "$s" --eye 0.05,0.02,0.6 --size 320x180 "${flags[@]}" --out "$out/$name.old.png" >/dev/null 2>"$out/$name.old.err"; a=$?
    "$new" render "$s" --eye 0.05,0.02,0.6 --size 320x180 "${flags[@]}" --out "$out/$name.new.png" >/dev/null 2>"$out/$name.new.err"; b=$?
    if [ $a -ne 0 ] || [ $b -ne 0 ]; then
      if [ $a -eq $b ] && cmp -s "$out/$name.old.err" "$out/$name.new.err"; then echo "both refuse: $s ($budget)"; same=$((same+1)); else echo "FAILED: $s ($budget): exit $a vs $b"; failed=$((failed+1)); fi
    elif cmp -s "$out/$name.old.png" "$out/$name.new.png"; then same=$((same+1)); else echo "DIFFERS: $s ($budget)"; differ=$((differ+1)); fi
  done
done
echo "$same identical, $differ differ, $failed failed (frames in $out)"
[ $differ -eq 0 ] && [ $failed -eq 0 ]
