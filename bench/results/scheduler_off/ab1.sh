#!/bin/bash
# ab1.sh OLD NEW ROUNDS LAYOUT "el pb var" ... : alternated, min and all
export OMP_NUM_THREADS=${THREADS:-1} OMP_PROC_BIND=close OMP_PLACES=cores
old=$1 new=$2 rounds=$3 lay=$4; shift 4
for c in "$@"; do
  set -- $c; el=$1 pb=$2 v=$3
  reps=$(( el == 2 ? 40 : el == 1 ? 80 : 200 )); [ $pb = 2 -o $pb = 4 ] && reps=$((reps / 4))
  lo=""; ln=""
  for r in $(seq $rounds); do
    lo="$lo $($old $lay $lay $v $el $reps ${N:-16384} $pb | awk '{print $(NF-1)}')"
    ln="$ln $($new $lay $lay $v $el $reps ${N:-16384} $pb | awk '{print $(NF-1)}')"
  done
  echo "el $el pb $pb var $v lay $lay | old$lo | new$ln" | awk -F'|' '{split($2,a," "); split($3,b," "); mo=1e9; mn=1e9; for(i=2;i in a;i++) if(a[i]<mo) mo=a[i]; for(i=2;i in b;i++) if(b[i]<mn) mn=b[i]; printf "%s| %s| %s| ratio %.3f\n", $1, $2, $3, mn/mo}'
done
