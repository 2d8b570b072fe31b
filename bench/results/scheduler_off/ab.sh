#!/bin/bash
# ab.sh OLD NEW ROUNDS LAYOUT(0 natural,1 blocked) : min ns per element, 1 thread, 16384 elements
export OMP_NUM_THREADS=${THREADS:-1} OMP_PROC_BIND=close OMP_PLACES=cores
old=$1 new=$2 rounds=${3:-2} lay=${4:-1}
for c in "0 1" "1 0" "1 1" "2 0" "2 1" "0 0" "0 2" "1 2" "2 2" "0 3" "0 4" "1 4"; do
  set -- $c; el=$1 pb=$2
  for v in 0 1 2 3 4 5 6; do
    bo=1e9 bn=1e9
    for r in $(seq $rounds); do
      reps=$(( el == 2 ? 40 : el == 1 ? 80 : 200 ))
      [ $pb = 2 -o $pb = 4 ] && reps=$((reps / 4))
      to=$($old $lay $lay $v $el $reps 16384 $pb | awk '{print $(NF-1)}')
      tn=$($new $lay $lay $v $el $reps 16384 $pb | awk '{print $(NF-1)}')
      bo=$(echo "$bo $to" | awk '{print ($2 < $1) ? $2 : $1}')
      bn=$(echo "$bn $tn" | awk '{print ($2 < $1) ? $2 : $1}')
    done
    echo "el $el pb $pb var $v lay $lay old $bo new $bn ratio $(echo "$bo $bn" | awk '{printf "%.3f", $2/$1}')"
  done
done
