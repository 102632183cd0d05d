#!/usr/bin/env bash
# Installs (or, with --uninstall, removes) SplatFrame under $DESTDIR$PREFIX like a Linux
# application: the binary, the scenes it ships, the desktop entry, the MIME types of the splat
# formats, icons rendered by SplatFrame itself, man pages and shell completions.
#   Scripts/install.sh BINARY PREFIX [DESTDIR]        (make install)
#   Scripts/install.sh --uninstall PREFIX [DESTDIR]   (make uninstall)
# Users' caches ($XDG_CACHE_HOME/splatframe) and config are theirs: never touched.
set -euo pipefail
cd "$(dirname "$0")/.."

uninstall=0
if [ "${1:-}" = "--uninstall" ]; then uninstall=1; shift; else binary="$1"; shift; fi
prefix="${1:-/usr/local}"
destdir="${2:-}"
root="$destdir$prefix"

# Everything this script installs, relative to PREFIX (uninstall removes exactly these).
icon_sizes="48 64 128 256"
files=(bin/splatframe
       share/splatframe/Scenes/cube.json share/splatframe/Scenes/mixed.json share/splatframe/Scenes/demo-object.ply
       share/splatframe/Scenes/demo-object.ply.splatframe.json share/splatframe/fetch-webcam-models.sh
       share/applications/splatframe.desktop share/mime/packages/splatframe.xml
       share/bash-completion/completions/splatframe share/zsh/vendor-completions/_splatframe
       share/fish/vendor_completions.d/splatframe.fish)
for s in $icon_sizes; do files+=("share/icons/hicolor/${s}x${s}/apps/splatframe.png"); done

refresh() {
    # Desktop databases, only for a live install (a package's triggers do this for DESTDIR builds).
    [ -z "$destdir" ] || return 0
    command -v update-mime-database >/dev/null && update-mime-database "$prefix/share/mime" || true
    command -v update-desktop-database >/dev/null && update-desktop-database -q "$prefix/share/applications" || true
    command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$prefix/share/icons/hicolor" || true
    command -v mandb >/dev/null && mandb -q >/dev/null 2>&1 || true
}

if [ "$uninstall" = 1 ]; then
    for f in "${files[@]}"; do rm -f "$root/$f"; done
    rm -f "$root"/share/man/man1/splatframe*.1
    rmdir --ignore-fail-on-non-empty "$root/share/splatframe/Scenes" "$root/share/splatframe" 2>/dev/null || true
    refresh
    echo "removed SplatFrame from $root (your caches and config under ~/.cache/splatframe and ~/.config/splatframe stay)"
    exit 0
fi

install -Dm755 "$binary" "$root/bin/splatframe"
for f in cube.json mixed.json demo-object.ply demo-object.ply.splatframe.json; do install -Dm644 "Scenes/$f" "$root/share/splatframe/Scenes/$f"; done
# `splatframe setup webcam` runs it (after saying what it downloads and asking).
install -Dm755 Scripts/fetch-webcam-models.sh "$root/share/splatframe/fetch-webcam-models.sh"
install -Dm644 Packaging/splatframe.desktop "$root/share/applications/splatframe.desktop"
install -Dm644 Packaging/splatframe-mime.xml "$root/share/mime/packages/splatframe.xml"

# Icons: the demo object rendered by our own splat renderer (hermetic: no user config read).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for s in $icon_sizes; do
    "$binary" render Scenes/demo-object.ply --eye 0,0,0.45 --screen-mm 300,300 --size "${s}x${s}" --out "$tmp/icon$s.png" >/dev/null 2>&1
    install -Dm644 "$tmp/icon$s.png" "$root/share/icons/hicolor/${s}x${s}/apps/splatframe.png"
done

# Completions and man pages from the command line's own definitions (swift-argument-parser).
mkdir -p "$root/share/bash-completion/completions" "$root/share/zsh/vendor-completions" "$root/share/fish/vendor_completions.d"
# (bash-completion sources the file: no #! line.)
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/share/bash-completion/completions/splatframe"
"$binary" --generate-completion-script zsh > "$root/share/zsh/vendor-completions/_splatframe"
"$binary" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/splatframe.fish"
# Man pages: swift-argument-parser's manual generator (a SwiftPM plugin: it builds the package in
# release mode and writes one page per command into its own output folder), dated by the last commit.
date=$(git log -1 --format=%cs 2>/dev/null || date +%F)
swift package generate-manual --multi-page --date "$date" --authors "SplatFrame developers" >/dev/null 2>&1 \
    || { echo "install: swift package generate-manual failed" >&2; exit 1; }
mkdir -p "$root/share/man/man1"
# A subcommand's page is named the Debian way, splatframe-open(1), with a NAME line whatis reads
# ("splatframe-open - …"); its synopsis keeps the command as typed ("splatframe open").
for page in .build/plugins/GenerateManual/outputs/splatframe/*.1; do
    command=$(sed -n 's/^\.Nm "\{0,1\}\([^"][^"]*\)"\{0,1\}$/\1/p' "$page" | head -1)
    name=${command// /-}
    # The importer child's command is internal: no page, and not in the others' SEE ALSO.
    [ "$name" = splatframe-import-model ] && continue
    sed -e "s/^\.Dt .* 1\$/.Dt ${name^^} 1/" -e "0,/^\.Nm .*\$/s//.Nm $name/" \
        -e "/^\.Sh SYNOPSIS/{n;s/^\.Nm\$/.Nm \"$command\"/}" -e "/^\.Xr splatframe.import-model 1/d" "$page" > "$tmp/$name.1"
    install -m644 "$tmp/$name.1" "$root/share/man/man1/$name.1"
done
refresh
echo "installed SplatFrame under $root"
