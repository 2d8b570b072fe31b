#!/bin/bash
# A/B of the hex8 out-of-line blocks: old = before FEINT_ALIGN_FRAME, new = after
cd /work/main
for round in 1 2 3; do
  for v in old new; do
    if [ $v = old ]; then OP=/tmp/pp/op_old; AS=/tmp/pp/asm_old; else OP=/tmp/pp/op_new; AS=/tmp/pp/asm_new; fi
    for var in qss_geo_generic sqs_geo_linear; do
      $OP --case hex8-poisson --threads 1 --order box --reps 5 --cells-hex 100 --variant $var 2>&1 | grep recompute | sed "s/^/r$round $v $var op /"
    done
    $AS --case hex8-poisson,hex8-elasticity --threads 1 --order box --pos map --reps 3 --cells 64 2>&1 | grep -E '^hex8' | sed "s/^/r$round $v asm /"
  done
done
