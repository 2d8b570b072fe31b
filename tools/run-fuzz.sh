#!/usr/bin/env bash
# run-fuzz.sh BUILD SECONDS - run every libFuzzer target built in BUILD/fuzz
# (one per fuzz/fuzz_<name>.c) for SECONDS each, starting from its committed
# seed corpus fuzz/corpus/<name>/ (new inputs go to BUILD/fuzz-corpus/<name>,
# the committed corpus is only read).  A target passes if it ran its time
# without a crash, leak, sanitizer report or timeout; a failing input is kept
# as BUILD/fuzz-artifacts/<name>-crash-*.  Closes with "N passed, N failed".
set -u
build=${1:-build-fuzz}
seconds=${2:-60}
pass=0 fail=0
for t in "$build"/fuzz/fuzz_*; do
  [ -x "$t" ] || continue
  name=${t##*/fuzz_}
  work="$build/fuzz-corpus/$name" art="$build/fuzz-artifacts"
  mkdir -p "$work" "$art"
  seeds=()
  [ -d "fuzz/corpus/$name" ] && seeds=("fuzz/corpus/$name")
  log="$build/fuzz-$name.log"
  OMP_NUM_THREADS=1 "$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$art/$name-" "$work" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  if [ $rc -eq 0 ]; then
    pass=$((pass + 1))
    echo "fuzz $name: ok, ${runs:-?} inputs in ${seconds} s"
  else
    fail=$((fail + 1))
    echo "FAIL fuzz $name (exit $rc); log $log, inputs in $art"
    grep -m5 -E 'ERROR|SUMMARY|runtime error|deadly signal' "$log" | sed 's/^/    /'
  fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
