#!/usr/bin/env bash
# Builds splatframe_VERSION_amd64.deb: the portable release binary with the Swift runtime linked
# statically (it runs without the toolchain), installed under /usr by Scripts/install.sh into a
# staging root, Depends computed from the binary's real shared libraries by dpkg-shlibdeps.
#   Scripts/make-deb.sh [OUTDIR]        (make deb; OUTDIR defaults to .build/deb)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/deb}"
# The version: SPLATFRAME_VERSION, else the last tag (v1.2 → 1.2, commits since → 1.2+3.gHASH),
# else 0.0+gitDATE.HASH.
if [ -n "${SPLATFRAME_VERSION:-}" ]; then version="$SPLATFRAME_VERSION"
elif tag=$(git describe --tags 2>/dev/null); then version=$(echo "${tag#v}" | sed 's/-/+/; s/-/./g')
else version="0.0+git$(git log -1 --format=%cd --date=format:%Y%m%d).$(git rev-parse --short HEAD)"; fi

swift build -c release --product splatframe --static-swift-stdlib --scratch-path .build-static
binary=.build-static/release/splatframe

stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
bash Scripts/install.sh "$binary" /usr "$stage/root"
strip --strip-unneeded "$stage/root/usr/bin/splatframe"
# Debian keeps man pages gzipped and a copyright file per package.
gzip -9n "$stage/root/usr/share/man/man1/"*.1
install -Dm644 Packaging/copyright "$stage/root/usr/share/doc/splatframe/copyright"
gzip -9nc Packaging/changelog > "$stage/changelog.gz"
install -Dm644 "$stage/changelog.gz" "$stage/root/usr/share/doc/splatframe/changelog.gz"   # a native package

# Depends: the packages that provide the libraries the binary loads.
mkdir -p "$stage/debian"
printf 'Source: splatframe\n\nPackage: splatframe\nArchitecture: amd64\n' > "$stage/debian/control"
depends=$(cd "$stage" && dpkg-shlibdeps -O -e root/usr/bin/splatframe 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
size=$(du -sk "$stage/root" | cut -f1)

mkdir -p "$stage/root/DEBIAN"
cat > "$stage/root/DEBIAN/control" <<EOF
Package: splatframe
Version: $version
Architecture: amd64
Maintainer: SplatFrame developers <splatframe@users.noreply.github.com>
Installed-Size: $size
Depends: $depends
Recommends: opencv-data, fonts-dejavu-core, python3-pip, libegl1, libgles2
Section: graphics
Priority: optional
Homepage: https://github.com/splatframe/splatframe
Description: head-tracked window into 3D for Gaussian splats and meshes
 SplatFrame turns a monitor into a window: scenes rendered by its own CPU
 renderers (a triangle rasterizer and a Gaussian-splat renderer) through an
 off-axis projection computed from where the viewer's head is (webcam, UDP,
 head-track logs or the mouse). It opens PLY, .splat, .spz, SOG and streamed
 SOG captures, OBJ and STL meshes, and renders, replays and benchmarks
 headless.
EOF
mkdir -p "$out"
deb="$out/splatframe_${version}_amd64.deb"
dpkg-deb --build --root-owner-group "$stage/root" "$deb" >/dev/null
echo "$deb"
