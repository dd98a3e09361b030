#!/usr/bin/env bash
# mypy --strict over the installed package `paperscope`, which setuptools assembles from three
# folders (src/paperscope, ingest/ -> paperscope.ingest, ui/ -> paperscope.ui): mypy does not
# read package-dir mappings, so the package is laid out with symlinks in build/typecheck (a
# fixed place, so that mypy's incremental cache stays valid between runs).
#   bash scripts/typecheck.sh            (uses .venv/bin/mypy; MYPY=... to choose another)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mypy="${MYPY:-$root/.venv/bin/mypy}"
tree="$root/build/typecheck"
rm -rf "$tree"
mkdir -p "$tree/paperscope"
for f in "$root"/src/paperscope/*; do
  ln -s "$f" "$tree/paperscope/$(basename "$f")"
done
ln -s "$root/ingest" "$tree/paperscope/ingest"
ln -s "$root/ui" "$tree/paperscope/ui"
cd "$root"
MYPYPATH="$tree" "$mypy" --config-file "$root/pyproject.toml" -p paperscope "$@" \
  | sed "s|build/typecheck/paperscope/ingest/|ingest/|; s|build/typecheck/paperscope/ui/|ui/|; s|build/typecheck/paperscope/|src/paperscope/|"
exit "${PIPESTATUS[0]}"
