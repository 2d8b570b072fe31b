#!/bin/sh
# A/B, alternated: old = d7bb67a libfeint.a, new = the commit (rows where the output is blocked); tensor_geo_linear conv-diff,
# trusted, ns per element (best of 7 calls after the first)
export OMP_PROC_BIND=close OMP_PLACES=cores
for round in 1 2 3; do
  for t in 1 2; do
    for el in 1 2; do
      for io in "1 1" "0 0"; do
        o=$(OMP_NUM_THREADS=$t ./ab_old $io 6 $el 8 | cut -d: -f2 | tr -d ' ns/elem')
        n=$(OMP_NUM_THREADS=$t ./ab_new $io 6 $el 8 | cut -d: -f2 | tr -d ' ns/elem')
        echo "round $round threads $t element $el layouts(in out) $io : old $o new $n"
      done
    done
  done
done
