#!/usr/bin/env bash
# run-tests.sh BUILD - run every test program and example (quiet mode) of a
# build; exit 0 = pass, 77 = skip (the program printed "SKIP: reason"),
# anything else = fail.  Closes with "N passed, N failed, N skipped".
set -u
build=${1:-build}
pass=0 fail=0 skip=0
for t in "$build"/tests/t* "$build"/examples/*; do
  [ -x "$t" ] || continue
  name=${t#"$build"/}
  args=()
  case "$name" in examples/*) args=(--quiet) ;; esac
  out=$("$t" "${args[@]}" 2>&1)
  rc=$?
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1))
  elif [ $rc -eq 77 ]; then
    skip=$((skip + 1))
    echo "skip $name: $(printf '%s\n' "$out" | grep -m1 SKIP)"
  else
    fail=$((fail + 1))
    echo "FAIL $name (exit $rc)"
    printf '%s\n' "$out" | head -n 25 | sed 's/^/    /'
  fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $((pass + fail)) -gt 0 ]
