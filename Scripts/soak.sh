#!/usr/bin/env bash
# Soak: the real window under Xvfb replaying a head-track log in a loop for SECONDS (default
# 600), sampling resident memory and frame time every 10 s (the window's --stats-every lines),
# then writing the figures to Docs/Soak.md. Scene: $SOAK_SCENE (default cube; anything
# `splatframe open` takes otherwise). Reads no user config (XDG_CONFIG_HOME points at an empty
# folder) so a user's settings never change the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
scene=${SOAK_SCENE:-cube}
bin=.build/release/splatframe
[ -x "$bin" ] || { echo "soak: build first (swift build -c release)" >&2; exit 2; }
track=../shared/testdata/headtracks/traj1_tool1_gt.tum.txt
head_args=(--head "replay:$track" --recenter --loop)
if [ ! -f "$track" ]; then track=Tests/BenchTests/Fixtures/short-track.csv; head_args=(--head "replay:$track" --loop); fi

work=$(mktemp -d)
trap 'kill ${app:-} ${xvfb:-} 2>/dev/null || true; rm -rf "$work"' EXIT
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 1
if [ "$scene" = cube ]; then cmd=(cube); else cmd=(open "$scene"); fi
echo "soak: $scene for ${seconds}s on $display, replaying $track" >&2
DISPLAY=$display XDG_CONFIG_HOME=$work "$bin" "${cmd[@]}" "${head_args[@]}" --size 1280x720 --stats-every 10 \
    2> "$work/stderr" &
app=$!
sleep "$seconds"
if ! kill -0 "$app" 2>/dev/null; then echo "soak: the window exited early:" >&2; cat "$work/stderr" >&2; exit 1; fi
kill "$app"; wait "$app" 2>/dev/null || true

grep '^splatframe: stats' "$work/stderr" > "$work/stats" || { echo "soak: no stats lines" >&2; cat "$work/stderr" >&2; exit 1; }
field() { sed -E "s/.* $1=([^ ]+).*/\1/"; }
first=$(head -n 1 "$work/stats"); last=$(tail -n 1 "$work/stats")
{
  echo "# Soak run"
  echo
  echo "\`make soak\` ($(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')):"
  echo "the window (\`$scene\`, 1280×720, Xvfb) replaying \`$(basename "$track")\` in a loop for ${seconds} s;"
  echo "every 10 s the window prints the median and p90 render time of the frames since the last line and its resident memory."
  echo
  echo "| | start | end |"
  echo "|---|---|---|"
  echo "| resident memory (MB) | $(echo "$first" | field rss_mb) | $(echo "$last" | field rss_mb) |"
  echo "| frame time median (ms) | $(echo "$first" | field median_ms) | $(echo "$last" | field median_ms) |"
  echo "| frame time p90 (ms) | $(echo "$first" | field p90_ms) | $(echo "$last" | field p90_ms) |"
  echo
  echo "| t (s) | frames | median ms | p90 ms | RSS MB |"
  echo "|---|---|---|---|---|"
  while read -r line; do
    echo "| $(echo "$line" | field t) | $(echo "$line" | field frames) | $(echo "$line" | field median_ms) | $(echo "$line" | field p90_ms) | $(echo "$line" | field rss_mb) |"
  done < "$work/stats"
} > Docs/Soak.md
echo "soak: wrote Docs/Soak.md" >&2
head -n 12 Docs/Soak.md
