#!/usr/bin/env bash
# Installs the newest splatframe .deb from DIR into a clean Debian 12 root made with debootstrap
# (no source tree, no toolchain), runs it there, and checks that `apt remove` leaves nothing of
# it under /usr. Needs root (debootstrap, chroot) and Debian's archive.
#   Scripts/deb-check.sh DIR        (make deb-check; DEB_CHECK_ROOT names the root, kept between runs)
set -euo pipefail
dir="${1:-.build/deb}"
deb=$(ls -t "$dir"/splatframe_*_amd64.deb | head -1)
root="${DEB_CHECK_ROOT:-/tmp/splatframe-debcheck}"
sudo=$([ "$(id -u)" = 0 ] || echo sudo)

if ! command -v debootstrap >/dev/null; then $sudo apt-get install -y -qq debootstrap >/dev/null; fi
if [ ! -x "$root/usr/bin/apt-get" ]; then
    echo "debootstrap: a minimal Debian 12 in $root (once)"
    $sudo debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
fi
$sudo mount --bind /proc "$root/proc"; $sudo mount --bind /dev "$root/dev"; $sudo mount --bind /dev/pts "$root/dev/pts"
trap '$sudo umount "$root/dev/pts" "$root/proc" "$root/dev" 2>/dev/null || true' EXIT
in_root() { $sudo chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

cp "$deb" "$root/tmp/splatframe.deb"
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/splatframe.deb >/dev/null
echo "installed $(basename "$deb") into $root"
in_root splatframe render /usr/share/splatframe/Scenes/demo-object.ply --eye 0,0,0.6 --size 320x180 --out /tmp/check.png
in_root splatframe info /usr/share/splatframe/Scenes/demo-object.ply | sed -n 1,3p
in_root splatframe library --help | sed -n 1,2p
# glTF through the importer child process (Assimp from the package's Depends), and the mixed scene.
cp Fuzz/corpus/gltf/quadb.glb "$root/tmp/quad.glb"
in_root splatframe info /tmp/quad.glb | sed -n 2,3p
in_root splatframe render /usr/share/splatframe/Scenes/mixed.json --eye 0,0,0.6 --size 320x180 --out /tmp/mixed.png
if in_root ldd /usr/bin/splatframe | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime'; then
    echo "deb-check: the installed binary loads toolchain libraries" >&2; exit 1
fi
for f in /usr/share/man/man1/splatframe.1.gz /usr/share/bash-completion/completions/splatframe /usr/share/applications/splatframe.desktop; do
    [ -e "$root$f" ] || { echo "deb-check: $f is missing" >&2; exit 1; }
done
files=$(in_root dpkg -L splatframe | grep '^/usr/' || true)
in_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq --purge splatframe >/dev/null
left=0
for f in $files; do
    if [ -f "$root$f" ] || [ -L "$root$f" ]; then echo "left behind: $f" >&2; left=1; fi
done
[ "$left" = 0 ] || exit 1
echo "deb-check: render, info (a .glb too), the mixed scene and library ran in a clean Debian 12; apt remove left nothing under /usr"
