#!/bin/sh
# args: binA binB threads rounds n pb element layouts("1 1"/"0 0"/both) variants...
A=$1; B=$2; t=$3; R=$4; n=$5; pb=$6; el=$7; lay=$8; shift 8
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=$t
for round in $(seq $R); do
  for v in "$@"; do
    for io in "1 1" "0 0"; do
      [ "$lay" = both ] || [ "$lay" = "$io" ] || continue
      a=$(./$A $io $v $el 6 $n $pb | cut -d: -f2 | tr -d ' ns/elem')
      b=$(./$B $io $v $el 6 $n $pb | cut -d: -f2 | tr -d ' ns/elem')
      echo "round $round threads $t pb $pb el $el var $v layouts(in out) $io : $A $a $B $b"
    done
  done
done
