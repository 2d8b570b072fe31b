#!/bin/bash
# one thread, feint_integrate trusted, best of 10 reps; old = vol inside, new = vol outside
export OMP_NUM_THREADS=1
for round in 1 2 3; do
  for v in old new; do
    for spec in "1 1 0 1 20 4096 0" "1 1 0 1 10 1048576 0" "0 0 0 1 10 1048576 0" "1 1 0 2 10 16384 0" "1 1 2 1 10 16384 1"; do
      echo "r$round $v [$spec] $(./pel_$v $spec 2>&1 | tail -1)"
    done
  done
done
