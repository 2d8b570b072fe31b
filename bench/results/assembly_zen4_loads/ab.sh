#!/bin/sh
# Alternate two builds of feint_bench_assembly (map positions, one thread), R rounds.
# ab.sh OLD_BIN NEW_BIN R > ab_raw.txt
old=$1; new=$2; R=${3:-3}
for r in $(seq "$R"); do
  for b in "$old" "$new"; do
    "$b" --case tet4-poisson,prism6-poisson,tet4-convdiff,prism6-convdiff --order box,hilbert \
      --pos map --threads 1 --reps 5 | grep -E '^(tet4|prism6)' | sed "s#^#$(basename "$(dirname "$(dirname "$b")")") round $r #"
  done
done
