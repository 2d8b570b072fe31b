#!/bin/bash
# alternated rounds: base (HEAD 9bb0500 operator) vs win (windows), op_apply N REPS FORM HILBERT ELEMENT
for round in 1 2 3; do
 for t in 1 2; do
  for cfg in "88 11 1 0 0" "88 11 1 1 0" "88 11 3 0 0" "88 11 3 1 0" "128 7 1 0 1" "128 7 1 1 1" "128 7 3 0 1" "128 7 3 1 1" "100 7 1 0 2" "100 7 1 1 2"; do
   for b in base win; do echo "round $round thr $t $b $(OMP_NUM_THREADS=$t ./$b $cfg)"; done
  done
 done
done
