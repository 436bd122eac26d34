#!/usr/bin/env bash
# Build the seed 002 authors' ns-3 tree (ns-3.33 + mmwave module + TCP SIAD,
# github.com/dscharnitzky/ns3-mmwave-tcp-bbr-siad) with ccsim's scenario programs in scratch/.
#
# This script downloads nothing. Get the snapshot first, with the search tool's fetch:
#     fetch github:dscharnitzky/ns3-mmwave-tcp-bbr-siad
# which leaves a bare git directory at
#     /work/.mirror/dscharnitzky+ns3-mmwave-tcp-bbr-siad/repo
# (any clone of that repository works: pass its git dir as NS3_MMWAVE_GIT).
#
# Usage: bash validation/ns3-mmwave/setup.sh
#   NS3_MMWAVE_GIT   git dir of the snapshot   (default: the /work/.mirror path above)
#   NS3_MMWAVE_REV   commit to extract         (default: HEAD of the snapshot)
#   NS3_MMWAVE_TREE  where the tree is built   (default: validation/ns3-mmwave/build/tree,
#                                               git-ignored: never commit the tree)
#   NS3_MMWAVE_JOBS  waf -j                    (default: 2)
# The build runs under `nice -n 19` (a shared machine). About 10 min on 2 idle cores.
# Re-running is cheap: the tree is extracted once per commit, and only changed scenario
# programs are copied (so only they are recompiled).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
GIT_DIR_SRC="${NS3_MMWAVE_GIT:-/work/.mirror/dscharnitzky+ns3-mmwave-tcp-bbr-siad/repo}"
TREE="${NS3_MMWAVE_TREE:-$HERE/build/tree}"
JOBS="${NS3_MMWAVE_JOBS:-2}"

if ! git --git-dir="$GIT_DIR_SRC" rev-parse --verify -q HEAD >/dev/null; then
    echo "error: no git snapshot at $GIT_DIR_SRC (NS3_MMWAVE_GIT)." >&2
    echo "Fetch it with the search tool: fetch github:dscharnitzky/ns3-mmwave-tcp-bbr-siad" >&2
    exit 1
fi
REV="$(git --git-dir="$GIT_DIR_SRC" rev-parse "${NS3_MMWAVE_REV:-HEAD}^{commit}")"

if [[ "$(cat "$TREE/.ccsim-tree-commit" 2>/dev/null || true)" != "$REV" ]]; then
    echo "== extracting $REV into $TREE"
    rm -rf "$TREE"
    mkdir -p "$TREE"
    # The snapshot lacks a few large blobs (three LTE fading traces, unused by the mmwave
    # module): leave out every path whose blob is absent, and say which.
    listing="$(git --git-dir="$GIT_DIR_SRC" ls-tree -r "$REV")"
    absent="$(awk '$2 == "blob" {print $3}' <<<"$listing" |
        git --git-dir="$GIT_DIR_SRC" cat-file --batch-check | awk '$2 == "missing" {print $1}')"
    missing=()
    for blob in $absent; do
        path="$(awk -v b="$blob" -F'\t' 'index($1, b) {print $2}' <<<"$listing")"
        echo "   (absent from the snapshot, left out: $path)"
        missing+=(":(exclude)$path")
    done
    git --git-dir="$GIT_DIR_SRC" archive "$REV" -- . "${missing[@]}" | tar -x -C "$TREE"
    echo "$REV" >"$TREE/.ccsim-tree-commit"
fi

# ccsim's scenario programs and their shared header (ours, not the authors'): copied only
# when changed.
for src in "$HERE"/scenarios/*.cc "$HERE"/scenarios/*.h; do
    [[ -e "$src" ]] || continue
    dst="$TREE/scratch/$(basename "$src")"
    cmp -s "$src" "$dst" || cp "$src" "$dst"
done

cd "$TREE"
if [[ ! -f build/c4che/_cache.py ]]; then
    echo "== configuring"
    nice -n 19 ./waf configure -d optimized --disable-python --disable-examples \
        --disable-tests --disable-werror \
        --enable-modules=mmwave,applications,point-to-point,buildings,config-store,flow-monitor
fi
echo "== building (nice -n 19, -j$JOBS)"
start=$(date +%s)
nice -n 19 ./waf build -j"$JOBS"
echo "== built in $(( $(date +%s) - start )) s; tree commit $REV"
