#!/bin/sh
# tools/gpu-toolchain.sh — set up the NVIDIA OpenMP-offload toolchain for feint.
#
# What: installs clang-19 + LLVM OpenMP (libomp-19-dev, which carries the NVPTX
#   device runtime /usr/lib/llvm-19/lib/libomptarget-nvptx-sm_XX.bc and the host
#   runtime libomptarget.so.19.1 with the CUDA plugin built in), enables Debian
#   bookworm's `non-free` component, downloads the single nvidia-cuda-toolkit 11.8
#   .deb (84 MB; NOT installed, only unpacked) and lays out a minimal CUDA tree:
#       <dir>/bin/{ptxas,nvlink,fatbinary}
#       <dir>/nvvm/libdevice/libdevice.10.bc
#       <dir>/include/cuda.h            (stub: #define CUDA_VERSION 11080)
#   for `clang-19 --cuda-path=<dir>`.  Default <dir>: build/cuda-11.8 (repo root).
# Why: the CUDA 13 toolkit (/usr/local/cuda) writes cubins with a new ELF e_flags
#   ABI that the LLVM 19 offload runtime rejects ("No images found compatible");
#   CUDA 11.8's ptxas/nvlink write the old ABI (0x5a055a for sm_90).  clang reads
#   the CUDA version from include/cuda.h; without it clang assumes a PTX ISA newer
#   than ptxas 11.8 accepts.  The real cuda.h lives in the 774 MB nvidia-cuda-dev,
#   which OpenMP offload does not need, hence the stub.
# Idempotent: every step is skipped when its result is already there.
# Not root: the steps that need root are printed (exact commands), the rest is done
#   when possible.
# Usage: tools/gpu-toolchain.sh [CUDA_DIR]
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CUDA_DIR=${1:-$ROOT/build/cuda-11.8}
PKGS="clang-19 clang-tools-19 llvm-19 libomp-19-dev"
SRC_FILE=/etc/apt/sources.list.d/feint-bookworm-non-free.sources
CUDA_PKG=nvidia-cuda-toolkit
CUDA_PKG_VERSION_PREFIX=11.8.
LLVM_LIB=/usr/lib/llvm-19/lib

say() { printf 'gpu-toolchain: %s\n' "$*"; }

is_root() { [ "$(id -u)" -eq 0 ]; }

missing_pkgs() {
    m=""
    for p in $PKGS; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            m="$m $p"
        fi
    done
    printf '%s' "$m"
}

# Candidate version of the CUDA toolkit package that apt knows about ("" if none).
cuda_candidate() {
    apt-cache policy "$CUDA_PKG" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v '(none)' || true
}

nonfree_src_text() {
    cat <<'EOF'
# Added by feint tools/gpu-toolchain.sh: Debian non-free, for the
# nvidia-cuda-toolkit 11.8 .deb (downloaded and unpacked only, never installed).
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
}

tree_ok() {
    [ -x "$CUDA_DIR/bin/ptxas" ] && [ -x "$CUDA_DIR/bin/nvlink" ] &&
    [ -x "$CUDA_DIR/bin/fatbinary" ] &&
    [ -f "$CUDA_DIR/nvvm/libdevice/libdevice.10.bc" ] &&
    grep -q '^#define CUDA_VERSION 11080' "$CUDA_DIR/include/cuda.h" 2>/dev/null
}

# ---- 1. root part: packages and the non-free apt source -------------------
need_root_cmds=""
miss=$(missing_pkgs)
cand=$(cuda_candidate)
if ! tree_ok && [ -z "$cand" ]; then
    if is_root; then
        if [ ! -f "$SRC_FILE" ]; then
            say "adding $SRC_FILE (bookworm non-free)"
            nonfree_src_text > "$SRC_FILE"
        fi
        say "apt-get update"
        apt-get update -qq
        cand=$(cuda_candidate)
    else
        need_root_cmds="${need_root_cmds}cat > $SRC_FILE <<'EOF'
$(nonfree_src_text)
EOF
apt-get update
"
    fi
fi
if [ -n "$miss" ]; then
    if is_root; then
        say "installing:$miss"
        [ -n "$need_root_cmds" ] || apt-get update -qq
        # shellcheck disable=SC2086  # word splitting of the package list is intended
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $miss
    else
        case $need_root_cmds in *"apt-get update"*) ;; *) need_root_cmds="${need_root_cmds}apt-get update
";; esac
        need_root_cmds="${need_root_cmds}apt-get install -y --no-install-recommends$miss
"
    fi
fi
if [ -n "$need_root_cmds" ]; then
    say "not root: run these commands as root, then re-run $0:"
    echo "----8<----"
    printf '%s' "$need_root_cmds"
    echo "----8<----"
    exit 1
fi

# ---- 2. CUDA 11.8 tree (no root needed once non-free is in the apt lists) --
if tree_ok; then
    say "CUDA 11.8 tree already in $CUDA_DIR"
else
    case $cand in
        "") say "apt knows no $CUDA_PKG candidate; is bookworm non-free enabled?"; exit 1 ;;
        *"$CUDA_PKG_VERSION_PREFIX"*) ;;
        *) say "$CUDA_PKG candidate is $cand, expected 11.8.x"; exit 1 ;;
    esac
    mkdir -p "$CUDA_DIR"
    CUDA_DIR=$(cd "$CUDA_DIR" && pwd)
    dl="$CUDA_DIR/.deb"
    rm -rf "$dl" && mkdir -p "$dl"
    chmod 755 "$dl"                         # lets apt's _apt user write there
    say "downloading $CUDA_PKG $cand (~84 MB)"
    (cd "$dl" && apt-get download -q "$CUDA_PKG=$cand")
    deb=$(ls "$dl"/${CUDA_PKG}_*.deb)
    say "unpacking $deb"
    dpkg -x "$deb" "$dl/x"
    mkdir -p "$CUDA_DIR/bin" "$CUDA_DIR/nvvm/libdevice" "$CUDA_DIR/include"
    for t in ptxas nvlink fatbinary; do
        cp -f "$dl/x/usr/bin/$t" "$CUDA_DIR/bin/$t"
        chmod 755 "$CUDA_DIR/bin/$t"
    done
    cp -f "$dl/x/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc" \
          "$CUDA_DIR/nvvm/libdevice/libdevice.10.bc"
    cat > "$CUDA_DIR/include/cuda.h" <<'EOF'
/* Stub written by feint tools/gpu-toolchain.sh.  clang reads the CUDA version
 * from this line; the real header (nvidia-cuda-dev) is not needed for OpenMP
 * offload.  Tools in ../bin come from Debian's nvidia-cuda-toolkit 11.8. */
#ifndef CUDA_VERSION
#define CUDA_VERSION 11080
#endif
EOF
    printf '%s\n' "$cand" > "$CUDA_DIR/version.txt"
    rm -rf "$dl"
    tree_ok || { say "CUDA tree in $CUDA_DIR is incomplete"; exit 1; }
fi

# ---- 3. report --------------------------------------------------------------
"$CUDA_DIR/bin/ptxas" --version | sed -n 's/^Cuda compilation tools, /ptxas: /p'
for a in sm_70 sm_80 sm_90; do
    [ -f "$LLVM_LIB/libomptarget-nvptx-$a.bc" ] || { say "missing $LLVM_LIB/libomptarget-nvptx-$a.bc"; exit 1; }
done
[ -f "$LLVM_LIB/libomptarget.so.19.1" ] || { say "missing $LLVM_LIB/libomptarget.so.19.1"; exit 1; }
command -v clang-linker-wrapper >/dev/null 2>&1 || [ -x /usr/lib/llvm-19/bin/clang-linker-wrapper ] ||
    { say "missing clang-linker-wrapper (clang-tools-19)"; exit 1; }
say "ok: clang-19 $(clang-19 -dumpversion), --cuda-path=$CUDA_DIR"
