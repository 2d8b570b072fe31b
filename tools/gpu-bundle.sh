#!/bin/sh
# tools/gpu-bundle.sh — make a self-contained bundle of OpenMP-offload binaries.
#
# What: copies BINARY... to OUTDIR/bin, collects every shared library they load
#   that a GPU machine with only glibc + the NVIDIA driver lacks (libomptarget.so.19.1
#   with its built-in CUDA plugin, libomp.so.5, libLLVM.so.19.1 and what it links:
#   libffi, libedit, libz3, libxml2, libicu*, libzstd, ...) into OUTDIR/lib, xz-
#   compresses the big ones (libLLVM 129 MB -> ~26 MB), and writes OUTDIR/run.sh,
#   which unpacks them once, checks the GPU with nvidia-smi, sets LD_LIBRARY_PATH
#   and runs the command:   OUTDIR/run.sh bin/t301_variants [ARGS...]
# Why: the GPU machines have the NVIDIA driver (libcuda.so.1) but no LLVM; the
#   offload runtime of clang-19 needs LLVM's shared libraries at run time.  The
#   device runtime (libomptarget-nvptx-sm_XX.bc) is linked into the binaries at
#   compile time, so no .bc is shipped.  libcuda is never bundled (it must match
#   the kernel driver); glibc is not bundled either (run.sh warns if it is too old).
#   libstdc++/libgcc_s go to lib/fallback, used only when the system's are older.
#   libLLVM.so.19.1 (Debian 12 build) needs glibc >= 2.36 (arc4random); for older
#   systems (e.g. Ubuntu 22.04, glibc 2.35) the bundle carries Debian's glibc in
#   lib/glibc (~3 MiB) and run.sh then starts the program through that ld.so.
# Usage: tools/gpu-bundle.sh OUTDIR BINARY...
#   Stubs: libLLVM NEEDs libz3 (the static analyzer's solver) and, through
#   libxml2 -> libicuuc, libicudata (ICU's data, 30 MiB); the offload runtime
#   calls neither, but the loader must find them, and their real files cost
#   14 MiB of the 64 MiB a GPU lease carries.  Each library named in
#   FEINT_BUNDLE_STUBS is replaced by a stub with the same soname that defines
#   exactly the symbols the bundled files import from it (functions that print
#   the name and abort; data as zero-filled objects), so loading succeeds
#   (also under BIND_NOW, as libicuuc is linked) and a call, should one ever
#   happen, fails loudly instead of silently.
# Env:   LLVM19_LIB (default /usr/lib/llvm-19/lib), FEINT_BUNDLE_MAX_MIB (default 60),
#        FEINT_BUNDLE_STUBS (default "libz3.so.4 libicudata.so.72"; empty: none),
#        FEINT_BUNDLE_CACHE (xz cache dir, default ${XDG_CACHE_HOME:-$HOME/.cache}/feint-gpu-bundle)
set -eu

say() { printf 'gpu-bundle: %s\n' "$*"; }
die() { printf 'gpu-bundle: error: %s\n' "$*" >&2; exit 1; }

[ $# -ge 2 ] || { echo "usage: $0 OUTDIR BINARY..." >&2; exit 2; }
OUT=$1; shift
LLVM19_LIB=${LLVM19_LIB:-/usr/lib/llvm-19/lib}
MAX_MIB=${FEINT_BUNDLE_MAX_MIB:-60}
XZ_MIN_BYTES=4194304            # compress libraries bigger than 4 MiB
STUBS=${FEINT_BUNDLE_STUBS-libz3.so.4 libicudata.so.72}
CACHE=${FEINT_BUNDLE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/feint-gpu-bundle}

for t in ldd xz objdump; do command -v $t >/dev/null 2>&1 || die "needs $t"; done
[ -f "$LLVM19_LIB/libomptarget.so.19.1" ] || die "no $LLVM19_LIB/libomptarget.so.19.1 (run tools/gpu-toolchain.sh)"
for b in "$@"; do
    if [ ! -f "$b" ] || [ ! -x "$b" ]; then die "not an executable file: $b"; fi
done

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -rf "${OUT:?}/bin" "${OUT:?}/lib" "${OUT:?}/run.sh" "${OUT:?}/BUNDLE.txt"
mkdir -p "$OUT/bin" "$OUT/lib/fallback" "$OUT/lib/glibc" "$CACHE"

# ---- binaries ----------------------------------------------------------------
for b in "$@"; do
    cp -L "$b" "$OUT/bin/"
    if readelf -d "$b" 2>/dev/null | grep -q '(RPATH)'; then
        say "warning: $b has DT_RPATH (searched before LD_LIBRARY_PATH); link with -Wl,--enable-new-dtags"
    fi
done

# ---- libraries: what ldd resolves for the binaries and for libomptarget ------
# (libomptarget's CUDA plugin is built in; at run time it dlopen()s only
#  "libcuda.so" from the driver, which is deliberately not bundled.)
list=$(mktemp)
trap 'rm -f "$list"' EXIT
for f in "$@" "$LLVM19_LIB/libomptarget.so.19.1"; do
    LD_LIBRARY_PATH="$LLVM19_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$f" |
        awk -v f="$f" '
            /=> not found/ { print "NOTFOUND " $1 " " f; next }
            $2 == "=>" && $3 ~ /^\// { print $1 " " $3 }'
done | sort -u > "$list"
if grep -q '^NOTFOUND ' "$list"; then
    grep '^NOTFOUND ' "$list" >&2
    die "unresolved libraries (above)"
fi

is_base() {     # glibc, the dynamic loader and the NVIDIA driver: never bundled
    case $1 in
        linux-vdso.so.*|ld-linux*.so.*|libc.so.*|libm.so.*|libmvec.so.*|libpthread.so.*|\
        libdl.so.*|librt.so.*|libresolv.so.*|libutil.so.*|libanl.so.*|libBrokenLocale.so.*|\
        libnss_*|libthread_db.so.*|libcuda.so*|libnvidia-*|libnvcuvid.so*) return 0 ;;
    esac
    return 1
}

manifest=$OUT/BUNDLE.txt
{
    echo "# feint GPU bundle, made $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) by tools/gpu-bundle.sh"
    echo "# soname  size-bytes  stored-as  source"
} > "$manifest"

# stub SONAME REAL: OUT/lib/SONAME defining what the binaries and the other
# bundled libraries import from REAL (see Stubs above)
stub() {
    sd=$(mktemp -d)
    nm -D --defined-only "$2" | awk '{ print $3, $2 }' | sed 's/@.*//' | sort -u > "$sd/def"
    { for b in $BINS; do nm -D --undefined-only "$b"; done
      awk '{ print $2 }' "$list" | while read -r l; do nm -D --undefined-only "$l"; done
    } 2>/dev/null | awk '{ print $2 }' | sed 's/@.*//' | sort -u > "$sd/undef"
    {
        echo '#include <stdio.h>'
        echo '#include <stdlib.h>'
        printf 'static void stub_abort(const char *f) { fprintf(stderr, "feint bundle: %%s of the stub %s was called\\n", f); abort(); }\n' "$1"
        awk 'NR == FNR { need[$1] = 1; next } need[$1] {
               if ($2 ~ /^[TtWwi]$/) printf "void %s(void) { stub_abort(\"%s\"); }\n", $1, $1;
               else printf "char %s[64];\n", $1 }' "$sd/undef" "$sd/def"
    } > "$sd/stub.c"
    n=$(grep -c '^void \|^char ' "$sd/stub.c")
    ${CC:-cc} -shared -fPIC -O1 -Wl,-soname,"$1" -o "$OUT/lib/$1" "$sd/stub.c" || die "stub $1 did not build"
    say "stub $1: $n symbols the bundle imports from $(basename "$2")"
    rm -rf "$sd"
}
BINS="$*"

while read -r soname path; do
    if is_base "$soname"; then continue; fi
    real=$(readlink -f "$path")
    size=$(wc -c < "$real" | tr -d ' ')
    case " $STUBS " in
        *" $soname "*) stub "$soname" "$real"
                       echo "$soname $size lib/$soname(stub) $real" >> "$manifest"; continue ;;
    esac
    case $soname in
        libstdc++.so.*|libgcc_s.so.*)
            cp "$real" "$OUT/lib/fallback/$soname"; stored=lib/fallback/$soname ;;
        *)
            if [ "$size" -gt "$XZ_MIN_BYTES" ]; then
                key=$(printf '%s' "$real" | cksum | cut -d' ' -f1)-$size-$(stat -c %Y "$real")
                cached=$CACHE/$soname.$key.xz
                if [ ! -f "$cached" ]; then
                    say "xz $soname ($((size / 1048576)) MiB; once, cached in $CACHE)"
                    xz -T0 -6 -c "$real" > "$cached.tmp.$$"
                    mv -f "$cached.tmp.$$" "$cached"
                fi
                cp "$cached" "$OUT/lib/$soname.xz"; stored=lib/$soname.xz
            else
                cp "$real" "$OUT/lib/$soname"; stored=lib/$soname
            fi ;;
    esac
    echo "$soname $size $stored $real" >> "$manifest"
done < "$list"

# ---- glibc, used only where the system's is too old (see run.sh) ---------------
ldso=$(readlink -f /lib64/ld-linux-x86-64.so.2)
cp "$ldso" "$OUT/lib/glibc/ld-linux-x86-64.so.2"
libc_dir=$(dirname "$(readlink -f "$(awk '$1 == "libc.so.6" { print $2 }' "$list")")")
for so in libc.so.6 libm.so.6 libmvec.so.1 libpthread.so.0 libdl.so.2 librt.so.1 libresolv.so.2; do
    if [ -e "$libc_dir/$so" ]; then cp "$(readlink -f "$libc_dir/$so")" "$OUT/lib/glibc/$so"; fi
done
echo "glibc $(getconf GNU_LIBC_VERSION | sed 's/^glibc //') $(du -sk "$OUT/lib/glibc" | cut -f1)KiB lib/glibc/ $libc_dir" >> "$manifest"

# ---- facts for run.sh's checks --------------------------------------------------
archs=""
if command -v llvm-objdump-19 >/dev/null 2>&1 || [ -x "$LLVM19_LIB/../bin/llvm-objdump" ]; then
    od=$(command -v llvm-objdump-19 || echo "$LLVM19_LIB/../bin/llvm-objdump")
    archs=$(for b in "$OUT"/bin/*; do "$od" --offloading "$b" 2>/dev/null; done |
            awk '$1 == "arch" { print $2 }' | sort -u | tr '\n' ' ' | sed 's/ $//')
fi
[ -n "$archs" ] || say "warning: found no NVPTX device images in the binaries (host-only build?)"
# newest glibc / libstdc++ symbol versions the bundled code requires
need_ver() {  # $1 = GLIBC or GLIBCXX
    for f in "$OUT"/bin/* "$LLVM19_LIB/libomptarget.so.19.1" $(awk '!/^#/ && $1 != "glibc" { print $4 }' "$manifest"); do
        case $f in *libstdc++*|*libgcc_s*) continue ;; esac
        objdump -T "$f" 2>/dev/null | grep -oE "\(${1}_[0-9.]+\)" | tr -d '()'
    done | sed "s/^${1}_//" | sort -t. -k1,1n -k2,2n -k3,3n | tail -1
}
glibc_need=$(need_ver GLIBC)
glibcxx_need=$(need_ver GLIBCXX)
{
    echo "# device archs: ${archs:-none}"
    echo "# needs glibc >= $glibc_need, libstdc++ with GLIBCXX_$glibcxx_need"
} >> "$manifest"

# ---- run.sh ------------------------------------------------------------------------
cat > "$OUT/run.sh" <<'EOF'
#!/bin/sh
# run.sh — written by feint tools/gpu-bundle.sh.  Runs a bundled OpenMP-offload
# program on a machine with glibc and the NVIDIA driver but no LLVM: unpacks the
# xz-compressed libraries once, checks the GPU with nvidia-smi, sets
# LD_LIBRARY_PATH to the bundle and execs the command.
# Usage: ./run.sh bin/PROG [ARGS...]      (PROG: relative to cwd or to this bundle)
# Env: FEINT_RUNTIME_DIR  where .xz libraries are unpacked (default: <bundle>/lib
#                         when writable, else ${TMPDIR:-/tmp}/feint-gpu-<uid>-<id>)
#      FEINT_REQUIRE_GPU=1  exit 3 when nvidia-smi shows no GPU
#      FEINT_QUIET=1        no messages from run.sh
#      FEINT_BUNDLED_GLIBC=1|0  force / forbid starting through the bundled glibc
#                         (default: only when the system glibc is older than needed)
#      OMP_TARGET_OFFLOAD   DISABLED (host only) / MANDATORY (GPU or error)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
LIB=$HERE/lib
ARCHS="@ARCHS@"
GLIBC_NEED="@GLIBC_NEED@"
GLIBCXX_NEED="@GLIBCXX_NEED@"

say() { [ "${FEINT_QUIET:-0}" = 1 ] || printf 'run.sh: %s\n' "$*" >&2; }
[ $# -ge 1 ] || { echo "usage: $0 bin/PROG [ARGS...]" >&2; exit 2; }

ldcache() {
    for l in ldconfig /sbin/ldconfig /usr/sbin/ldconfig; do
        if out=$("$l" -p 2>/dev/null); then printf '%s\n' "$out"; return 0; fi
    done
    return 0
}
# version a <= version b (dotted, numeric)
ver_le() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n -k3,3n | head -1)" = "$1" ]; }

# ---- GPU (before our LD_LIBRARY_PATH can affect nvidia-smi) --------------------
gpu=""
if command -v nvidia-smi >/dev/null 2>&1; then
    gpu=$(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>/dev/null) ||
        gpu=$(nvidia-smi -L 2>/dev/null) || gpu=""
fi
if [ -n "$gpu" ]; then
    printf '%s\n' "$gpu" | while IFS= read -r l; do say "GPU: $l"; done
    cc=$(printf '%s\n' "$gpu" | sed -n '1s/^[^,]*, *\([0-9][0-9]*\)\.\([0-9][0-9]*\),.*/sm_\1\2/p')
    if [ -n "$cc" ] && [ -n "$ARCHS" ]; then
        case " $ARCHS " in
            *" $cc "*) ;;
            *) say "warning: GPU is $cc, binaries carry device code for: $ARCHS" ;;
        esac
    fi
else
    say "no NVIDIA GPU visible (nvidia-smi missing or failed); target regions fall back to the host unless OMP_TARGET_OFFLOAD=MANDATORY"
    [ "${FEINT_REQUIRE_GPU:-0}" != 1 ] || exit 3
fi

# ---- glibc -----------------------------------------------------------------------
have=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed 's/^glibc //') || have=""
use_glibc=${FEINT_BUNDLED_GLIBC:-}
if [ -z "$use_glibc" ]; then
    use_glibc=0
    if [ -n "$have" ] && [ -n "$GLIBC_NEED" ] && ! ver_le "$GLIBC_NEED" "$have"; then
        say "glibc $have here, bundle needs >= $GLIBC_NEED: using the bundled glibc"
        use_glibc=1
    fi
fi

# ---- unpack the xz libraries once ----------------------------------------------
RT=${FEINT_RUNTIME_DIR:-}
if [ -z "$RT" ]; then
    if [ -w "$LIB" ]; then RT=$LIB
    else RT=${TMPDIR:-/tmp}/feint-gpu-$(id -u)-$(cksum < "$HERE/BUNDLE.txt" | cut -d' ' -f1)
    fi
fi
mkdir -p "$RT"
for z in "$LIB"/*.xz; do
    [ -e "$z" ] || continue
    so=$(basename "$z" .xz)
    out=$RT/$so
    if [ ! -f "$out" ] || [ -n "$(find "$z" -newer "$out" 2>/dev/null)" ]; then
        say "unpacking $so into $RT (once)"
        tmp=$out.tmp.$$
        if command -v xz >/dev/null 2>&1; then
            xz -dc "$z" > "$tmp"
        elif command -v python3 >/dev/null 2>&1; then
            python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$z" "$tmp"
        else
            say "error: need xz or python3 to unpack $z"; exit 4
        fi
        mv -f "$tmp" "$out"
    fi
done

# ---- libcuda.so: the built-in CUDA plugin dlopen()s the unversioned name ------
cache=$(ldcache)
rm -f "$RT/libcuda.so"          # never keep a link made on another machine
if ! printf '%s\n' "$cache" | grep -q '^[[:space:]]*libcuda\.so[[:space:]]'; then
    c1=$(printf '%s\n' "$cache" | sed -n 's/^[[:space:]]*libcuda\.so\.1 (.*x86-64.*) => //p' | head -1)
    if [ -z "$c1" ]; then
        for d in $(printf '%s' "${LD_LIBRARY_PATH:-}" | tr ':' ' ') /usr/lib/x86_64-linux-gnu \
                 /usr/lib64 /usr/local/nvidia/lib64 /usr/lib/wsl/lib; do
            if [ -e "$d/libcuda.so.1" ]; then c1=$d/libcuda.so.1; break; fi
        done
    fi
    if [ -n "$c1" ]; then ln -sf "$c1" "$RT/libcuda.so"
    elif [ -n "$gpu" ]; then say "warning: no libcuda.so.1 found; the GPU will not be used"
    fi
fi

# ---- libstdc++ / libgcc_s: the system's unless it is older than needed ----------
fb=""
if [ -n "$GLIBCXX_NEED" ]; then
    sys=$(printf '%s\n' "$cache" | sed -n 's/^[[:space:]]*libstdc++\.so\.6 (.*x86-64.*) => //p' | head -1)
    if [ -z "$sys" ] || ! grep -q "GLIBCXX_$GLIBCXX_NEED" "$sys" 2>/dev/null; then
        fb=:$LIB/fallback
        say "using bundled libstdc++ (system one lacks GLIBCXX_$GLIBCXX_NEED)"
    fi
fi

if [ "$RT" = "$LIB" ]; then p=$LIB; else p=$RT:$LIB; fi
LD_LIBRARY_PATH=$p$fb${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH

prog=$1; shift
case $prog in
    */*) if [ ! -e "$prog" ] && [ -e "$HERE/$prog" ]; then prog=$HERE/$prog; fi ;;
    *)   if [ -x "$HERE/bin/$prog" ]; then prog=$HERE/bin/$prog; fi ;;
esac
if [ "$use_glibc" = 1 ]; then
    # The bundled ld.so searches --library-path, then the system's ld.so.cache and
    # default dirs (where the driver's libcuda.so.1 is); glibc itself comes from
    # lib/glibc, so system libraries are loaded against the newer glibc.
    case $prog in */*) ;; *) prog=$(command -v "$prog") ;; esac
    exec "$LIB/glibc/ld-linux-x86-64.so.2" --argv0 "$prog" \
        --library-path "$LIB/glibc:$LD_LIBRARY_PATH" "$prog" "$@"
fi
exec "$prog" "$@"
EOF
sed -i -e "s|@ARCHS@|$archs|" -e "s|@GLIBC_NEED@|$glibc_need|" \
       -e "s|@GLIBCXX_NEED@|$glibcxx_need|" "$OUT/run.sh"
chmod 755 "$OUT/run.sh"

# ---- size ---------------------------------------------------------------------------
kib=$(du -sk "$OUT" | cut -f1)
say "bundle $OUT: $(du -sh "$OUT" | cut -f1) ($kib KiB); device archs: ${archs:-none}; needs glibc >= $glibc_need"
awk '!/^#/ { printf "  %-24s %10s  %s\n", $1, $2, $3 }' "$manifest"
if [ "$kib" -ge $((MAX_MIB * 1024)) ]; then
    die "bundle is $kib KiB, over the ${MAX_MIB} MiB limit"
fi
