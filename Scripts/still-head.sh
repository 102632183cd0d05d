#!/usr/bin/env bash
# Still head: how soon after a head stops the real window shows the whole capture. The window
# (release build, 1280×720, under its own Xvfb) opens CAPTURE and replays a head that sways
# (±8 cm at 0.5 Hz, ±3 cm vertically at 1 Hz) for MOVING seconds (default 3) and then holds
# still; its --stats-every 0.1 lines give the splats each governed frame showed. Prints, per run,
# the seconds from the stop to the first line showing the whole capture (≥ 99 % of the most any
# line showed; lines come every 0.1 s, so ±0.1 s), and the budgets while moving (least–most). MOVING=0 opens
# with the head already still (a cold start: nothing decoded yet); then the seconds from the
# launch of the process (start-up included, each line stamped as it arrives) are given too. Extra arguments go to
# `splatframe open` (e.g. --lod-cache DIR). Reads no user config.
#   Scripts/still-head.sh CAPTURE [RUNS] [-- open arguments…]
set -euo pipefail
cd "$(dirname "$0")/.."
capture=${1:?usage: still-head.sh CAPTURE [RUNS] [-- open arguments]}
shift
runs=3
if [ $# -gt 0 ] && [ "$1" != "--" ]; then runs=$1; shift; fi
[ "${1:-}" = "--" ] && shift
moving=${MOVING:-3}
bin=.build/release/splatframe
[ -x "$bin" ] || { echo "still-head: build first (swift build -c release --product splatframe)" >&2; exit 2; }

work=$(mktemp -d)
trap 'kill ${xvfb:-} 2>/dev/null || true; rm -rf "$work"' EXIT
awk -v moving="$moving" 'BEGIN { pi = atan2(0, -1); print "t,x,y,z"
    for (i = 0; i <= (moving + 12) * 100; i++) { t = i / 100; u = (t < moving) ? t : moving
        printf "%.2f,%.5f,%.5f,0.6\n", t, 0.08 * sin(pi * u), 0.03 * sin(2 * pi * u) } }' > "$work/track.csv"
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 1
echo "still-head: $(basename "$capture"), ${moving} s of sway then still, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" >&2
for run in $(seq 1 "$runs"); do
    launch=$EPOCHREALTIME
    { DISPLAY=$display XDG_CONFIG_HOME=$work XDG_CACHE_HOME=${XDG_CACHE_HOME:-$work/cache} SDL_RENDER_DRIVER=software \
        timeout $((moving + 8)) "$bin" open "$capture" --size 1280x720 --head "replay:$work/track.csv" --stats-every 0.1 "$@" \
        2>&1 >/dev/null || true; } | while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done > "$work/stderr"
    grep '^[0-9.]* splatframe: stats.* shown=' "$work/stderr" > "$work/stats" || { echo "still-head: no governed stats lines" >&2; cat "$work/stderr" >&2; exit 1; }
    awk -v stop="$moving" -v run="$run" -v launch="$launch" '
        { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
          t[NR] = v["t"]; s[NR] = v["shown"]; b[NR] = v["budget"]; stamp[NR] = $1 - launch; if (v["shown"] > most) most = v["shown"] }
        END { for (i = 1; i <= NR; i++) if (t[i] >= stop && s[i] >= 0.99 * most) { at = t[i] - stop; fromLaunch = stamp[i]; break }
              lo = ""; hi = ""; for (i = 1; i <= NR; i++) if (t[i] < stop) { if (lo == "" || b[i] + 0 < lo) lo = b[i] + 0; if (hi == "" || b[i] + 0 > hi) hi = b[i] + 0 }
              mb = lo == "" ? "-" : lo "–" hi
              if (at == "") printf "run %d: the whole capture (%d splats) never came\n", run, most
              else if (stop == 0) printf "run %d: whole capture (%d splats) %.1f s after the window opened, %.2f s after launch\n", run, most, at, fromLaunch
              else printf "run %d: whole capture (%d splats) %.1f s after the stop; budget while moving %s\n", run, most, at, mb }' "$work/stats"
done
