#!/usr/bin/env bash
# Checks the release archives that `mvn -Prelease package` assembled: each one's SHA-256 against
# JReleaser's checksum file, then, unpacked into a scratch folder far from the sources,
# `bin/mlv --version` and `bin/mlv validate` on the example the archive carries, and that picocli
# is in it as rewritten at package time.
# Usage: scripts/check-release.sh [ARCHIVE...]   (default: every archive under target/jreleaser)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/target/jreleaser"
if [ $# -eq 0 ]; then
  set -- "$out"/assemble/mlv/archive/*.zip "$out"/assemble/mlv/archive/*.tar.gz
fi
version="$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$root/pom.xml" | head -1)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for archive in "$@"; do
  [ -f "$archive" ] || { echo "check-release: no archive $archive; run 'mvn -Prelease package'" >&2; exit 1; }
  name="$(basename "$archive")"
  sum="$out/checksums/mlv/$name.sha256"
  [ -f "$sum" ] || { echo "check-release: no checksum file $sum" >&2; exit 1; }
  if [ "$(sha256sum "$archive" | cut -d' ' -f1)" != "$(cut -d' ' -f1 "$sum" | tr -d '[:space:]')" ]; then
    echo "check-release: $name does not match $sum" >&2
    exit 1
  fi
  dest="$scratch/${name%%.*}-$RANDOM"
  mkdir -p "$dest"
  case "$name" in
    *.zip) unzip -q "$archive" -d "$dest" ;;
    *.tar.gz | *.tgz) tar xzf "$archive" -C "$dest" ;;
  esac
  home="$(find "$dest" -mindepth 1 -maxdepth 1 -type d | head -1)"
  for f in bin/mlv lib/mlv.jar README.md docs/guide.md examples/medallion/mlv.yml; do
    [ -e "$home/$f" ] || { echo "check-release: $name has no $f" >&2; exit 1; }
  done
  [ -x "$home/bin/mlv" ] || { echo "check-release: bin/mlv is not executable in $name" >&2; exit 1; }
  # picocli ships rewritten as Java 8 class files (see build/RetargetOldClasses.java): byte 7 of
  # a class file is its major version, 49 for Java 5, 52 for Java 8.
  unzip -p "$home"/lib/picocli-*.jar picocli/CommandLine.class >"$scratch/CommandLine.class"
  major="$(od -An -tu1 -j7 -N1 "$scratch/CommandLine.class" | tr -d ' ')"
  [ "$major" -ge 50 ] || { echo "check-release: $name carries picocli as Java 5 classes ($major)" >&2; exit 1; }
  # From another folder, so nothing of the source tree can be picked up.
  got="$(cd "$scratch" && "$home/bin/mlv" --version)"
  case "$got" in
    *"$version"*) ;;
    *) echo "check-release: 'mlv --version' from $name said: $got" >&2; exit 1 ;;
  esac
  # Installed as a symlink on the PATH (~/bin/mlv -> .../bin/mlv), it still finds its jars.
  mkdir -p "$scratch/path"
  ln -sf "$home/bin/mlv" "$scratch/path/mlv"
  (cd "$scratch" && "$scratch/path/mlv" validate -p "$home/examples/medallion") >"$scratch/validate.out"
  grep -q "0 errors" "$scratch/validate.out" || { cat "$scratch/validate.out" >&2; exit 1; }
  echo "ok: $name ($(du -h "$archive" | cut -f1)): checksum, mlv --version ($(echo "$got" | head -1)), mlv validate on examples/medallion through a symlink"
done
