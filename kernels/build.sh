#!/usr/bin/env bash
# Regenerate every kernels/**/X.ptx from X.cu with nvcc from the CUDA 13 PyPI wheels.
#
#   bash kernels/build.sh            # rebuild all PTX
#   bash kernels/build.sh --check    # rebuild into a temp dir and fail if any
#                                    # committed .ptx differs from fresh output
#   bash kernels/build.sh [--check] DIR...   # only the sources under kernels/DIR (e.g. dtype)
#
# nvcc comes from the wheels nvidia-cuda-nvcc, nvidia-nvvm, nvidia-cuda-crt,
# nvidia-cuda-runtime and nvidia-cuda-cccl (installed with pip if missing); they
# lay out a normal toolkit tree under site-packages/nvidia/cu13 (bin/nvcc,
# nvvm/bin/cicc, include/), and bin/nvcc.profile already points nvcc at cicc and
# the headers, so no extra -I or -ccbin is needed. A host C++ compiler (g++) is
# needed for preprocessing. No GPU is needed.
#
# Per-file flags: a line `// nvcc-flags: FLAG...` among the first 5 lines of X.cu adds those
# flags for that file only (e.g. `// nvcc-flags: -use_fast_math`); only flags matching
# [-A-Za-z0-9_=.]+ are accepted.
#
# Reproducibility: with -lineinfo, nvcc writes the source's absolute path into
# the PTX `.file` directive. To keep that independent of where the repo is
# checked out, sources are compiled through the fixed symlink
# /tmp/kcert/kernels -> <this directory>, so every PTX says
# `.file 1 "/tmp/kcert/kernels/<dir>/<X>.cu"`. Likewise nvcc is run through the
# symlink /tmp/kcert/cuda -> <toolkit root>, so headers that contribute line info
# (e.g. sm_30_intrinsics.hpp for __shfl_down_sync / __syncwarp) appear as
# `/tmp/kcert/cuda/bin/../include/...` rather than a site-packages path.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
PYTHON="${PYTHON:-python3}"
NVCC_FLAGS=(-ptx -arch=sm_80 -O3 -lineinfo)
WHEELS=(nvidia-cuda-nvcc nvidia-nvvm nvidia-cuda-crt nvidia-cuda-runtime nvidia-cuda-cccl)

find_nvcc() {
    if [[ -n "${NVCC:-}" && -x "${NVCC}" ]]; then echo "$NVCC"; return 0; fi
    "$PYTHON" - <<'PY' 2>/dev/null
import os, sys
try:
    import nvidia
except ImportError:
    sys.exit(1)
for root in list(nvidia.__path__):
    for sub in ("cu13", "cuda_nvcc", ""):
        cand = os.path.join(root, sub, "bin", "nvcc")
        if os.access(cand, os.X_OK):
            print(cand)
            sys.exit(0)
    for dirpath, _dirs, files in os.walk(root):
        if "nvcc" in files and os.path.basename(dirpath) == "bin":
            print(os.path.join(dirpath, "nvcc"))
            sys.exit(0)
sys.exit(1)
PY
}

NVCC_BIN="$(find_nvcc || true)"
if [[ -z "$NVCC_BIN" ]]; then
    echo "build.sh: nvcc not found in site-packages; installing CUDA 13 wheels with pip" >&2
    "$PYTHON" -m pip install --quiet "${WHEELS[@]}"
    NVCC_BIN="$(find_nvcc || true)"
fi
if [[ -z "$NVCC_BIN" ]]; then
    echo "build.sh: could not find nvcc after installing ${WHEELS[*]}" >&2
    exit 1
fi
echo "build.sh: using $NVCC_BIN"
"$NVCC_BIN" --version | tail -n 2

CHECK=0
if [[ "${1:-}" == "--check" ]]; then CHECK=1; shift; fi
ONLY=("$@")   # optional family directories (relative to kernels/) to restrict the build to

# Stable logical path for the `.file` directive (see above). The sources are copied into a
# real directory rather than reached through a symlink: cudafe++ names inlined header
# functions (e.g. `__shfl_xor_sync`) with a hash of the source's *resolved* path, so a symlink
# would make the PTX depend on where the repository is checked out.
LINK_ROOT=/tmp/kcert
mkdir -p "$LINK_ROOT"
rm -rf "$LINK_ROOT/kernels"
mkdir -p "$LINK_ROOT/kernels"
(cd "$HERE" && find . -name '*.cu' -not -path './.*' -print0 | while IFS= read -r -d '' f; do
    mkdir -p "$LINK_ROOT/kernels/$(dirname "$f")"
    cp "$f" "$LINK_ROOT/kernels/$f"
done)
ln -sfn "$(cd "$(dirname "$NVCC_BIN")/.." && pwd -P)" "$LINK_ROOT/cuda"
NVCC_RUN="$LINK_ROOT/cuda/bin/$(basename "$NVCC_BIN")"

OUTDIR=""
if [[ $CHECK == 1 ]]; then OUTDIR="$(mktemp -d)"; trap 'rm -rf "$OUTDIR"' EXIT; fi

status=0
count=0
while IFS= read -r cu; do
    rel="${cu#"$HERE"/}"                 # e.g. reduce/reduce_seq.cu
    dir="$(dirname "$rel")"
    base="$(basename "$rel" .cu)"
    if [[ ${#ONLY[@]} -gt 0 ]]; then
        keep=0
        for d in "${ONLY[@]}"; do
            [[ "$rel" == "${d%/}/"* ]] && keep=1
        done
        [[ $keep == 1 ]] || continue
    fi
    if [[ $CHECK == 1 ]]; then
        mkdir -p "$OUTDIR/$dir"
        out="$OUTDIR/$dir/$base.ptx"
    else
        out="$HERE/$dir/$base.ptx"
    fi
    # per-file extra flags: `// nvcc-flags: ...` in the first 5 lines
    extra_line="$(head -n 5 "$cu" | sed -n 's|^// nvcc-flags:[[:space:]]*||p' | head -n 1)"
    read -r -a EXTRA <<< "$extra_line"
    for flag in "${EXTRA[@]}"; do
        if [[ ! "$flag" =~ ^-[-A-Za-z0-9_=.]+$ ]]; then
            echo "build.sh: $rel: refusing nvcc flag '$flag'" >&2
            exit 1
        fi
    done
    # cd through the symlink so nvcc sees the logical path in $PWD
    if ! (cd "$LINK_ROOT/kernels/$dir" && "$NVCC_RUN" "${NVCC_FLAGS[@]}" "${EXTRA[@]}" "$base.cu" -o "$out"); then
        echo "build.sh: FAILED $rel" >&2
        status=1
        continue
    fi
    count=$((count + 1))
    if [[ $CHECK == 1 ]]; then
        if ! cmp -s "$out" "$HERE/$dir/$base.ptx"; then
            echo "build.sh: STALE $dir/$base.ptx (differs from fresh nvcc output)" >&2
            status=1
        fi
    else
        echo "  $dir/$base.ptx"
    fi
done < <(find "$HERE" -name '*.cu' -not -path '*/.*' | sort)

echo "build.sh: $count kernel(s) compiled"
exit $status
