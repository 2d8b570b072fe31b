#!/bin/sh
# alternated A/B with the output arrays SHIFT doubles past a 64-byte line (8 bytes each).
# args: binA binB threads rounds n pb element shift variants...
A=$1; B=$2; t=$3; R=$4; n=$5; pb=$6; el=$7; sh=$8; shift 8
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=$t SHIFT=$sh
for round in $(seq $R); do
  for v in "$@"; do
    a=$(./$A 0 0 $v $el 6 $n $pb | cut -d: -f2 | tr -d ' ns/elem')
    b=$(./$B 0 0 $v $el 6 $n $pb | cut -d: -f2 | tr -d ' ns/elem')
    echo "round $round threads $t pb $pb el $el var $v natural, output $((8 * sh)) bytes past a line : $A $a $B $b"
  done
done
