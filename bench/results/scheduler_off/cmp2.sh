#!/bin/bash
# cmp2.sh CASE...: old vs new over the two alternated rounds (bench_round1/, bench_round2/):
# min of the two runs' ns_min, and the lower of the two runs' ns_med
for c in "$@"; do
  for b in old new; do
    cat bench_round1/${b}_$c.txt bench_round2/${b}_$c.txt | grep -v '^#' | grep -v '^case' |
      awk -v b=$b '{k=$1"/"$2"/"$3; if (!(k in mn) || $4 < mn[k]) mn[k]=$4; if (!(k in md) || $5 < md[k]) md[k]=$5; pc[k]=pc[k]" "$10}
           END {for (k in mn) print k, mn[k], md[k], pc[k]}' | sort > /tmp/_$b
  done
  join /tmp/_old /tmp/_new | grep -v packed |
    awk '{printf "%-44s old %7.2f %7.2f (%s %s)  new %7.2f %7.2f (%s %s)  new/old min %.2f med %.2f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $6/$2, $7/$3}'
done
