#!/bin/bash
# A/B of vol outside the sums: fb_old (vol inside) and fb_new, alternated
cd /work/main
for round in 1 2; do
  for v in old new; do
    echo "=== round $round $v"
    /tmp/pp/fb_$v --case prism6-poisson,hex8-poisson,prism6-convdiff,tet4-convdiff --budget 1.5 --no-csv 2>&1 | grep -E '^(prism6|hex8|tet4)-|^# .*natural/blocked'
  done
done
