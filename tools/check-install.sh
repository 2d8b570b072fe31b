#!/usr/bin/env bash
# check-install.sh CC - installed use: `make install PREFIX=<tmp>`, then build
# examples out of tree (a copy in another directory, no -I or -L into this
# tree) with `CC $(pkg-config --cflags feint) ex.c $(pkg-config --libs feint)`
# (PKG_CONFIG_PATH=<tmp>/lib/pkgconfig), once against the shared library and
# once static (pkg-config --static, -l:libfeint.a), and run them (--quiet).
# Checks that the shared build really loads the installed libfeint.so.
# Closes with "N passed, N failed" (make check-install; a CI stage).
set -u
cc=${1:-cc}
shift
examples=("$@")
[ ${#examples[@]} -gt 0 ] || examples=(examples/01_single_tet.c)
root=$(pwd)
pass=0 fail=0
tmp=$(mktemp -d /tmp/feint_install_XXXXXX)
trap 'rm -rf "$tmp"' EXIT
failed() {
  fail=$((fail + 1))
  echo "FAIL installed use: $*"
}
if ! make --no-print-directory -C "$root" install PREFIX="$tmp/prefix" > "$tmp/install.log" 2>&1; then
  failed "make install PREFIX=$tmp/prefix"
  sed 's/^/    /' "$tmp/install.log" | tail -n 20
  echo "$pass passed, $fail failed"
  exit 1
fi
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
if ! pkg-config --exists feint; then
  failed "pkg-config does not find feint in $PKG_CONFIG_PATH"
else
  cflags=$(pkg-config --cflags feint)
  libs=$(pkg-config --libs feint)
  case "$cflags $libs" in
    *-fopenmp*-fopenmp*) ;;
    *) failed "feint.pc lacks -fopenmp in Cflags or Libs: '$cflags' '$libs'" ;;
  esac
  case "$libs" in *-lm*) ;; *) failed "feint.pc Libs lack -lm: '$libs'" ;; esac
  mkdir -p "$tmp/app"
  for ex in "${examples[@]}"; do
    name=$(basename "$ex" .c)
    cp "$root/$ex" "$tmp/app/$name.c"
    # shared library: run against the installed .so (LD_LIBRARY_PATH: the
    # prefix is off the loader's path)
    if (cd "$tmp/app" && $cc $cflags "$name.c" -o "$name" $libs) > "$tmp/cc.log" 2>&1; then
      if ! LD_LIBRARY_PATH="$tmp/prefix/lib" ldd "$tmp/app/$name" | grep -q "$tmp/prefix/lib/libfeint.so"; then
        failed "$name does not load $tmp/prefix/lib/libfeint.so"
      elif (cd "$tmp/app" && LD_LIBRARY_PATH="$tmp/prefix/lib" "./$name" --quiet) > "$tmp/run.log" 2>&1; then
        pass=$((pass + 1))
      else
        failed "$name (shared) exited non-zero"
        sed 's/^/    /' "$tmp/run.log" | head -n 20
      fi
    else
      failed "$cc $cflags $name.c -o $name $libs"
      sed 's/^/    /' "$tmp/cc.log" | head -n 20
    fi
    # static library: pkg-config --static, -lfeint resolved to the archive
    slibs=$(pkg-config --static --libs feint | sed 's/-lfeint/-l:libfeint.a/')
    if (cd "$tmp/app" && $cc $cflags "$name.c" -o "${name}_static" $slibs) > "$tmp/cc.log" 2>&1 &&
      (cd "$tmp/app" && "./${name}_static" --quiet) > "$tmp/run.log" 2>&1; then
      pass=$((pass + 1))
    else
      failed "$name (static, $slibs)"
      sed 's/^/    /' "$tmp/cc.log" "$tmp/run.log" | head -n 20
    fi
  done
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
