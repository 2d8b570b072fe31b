#!/bin/bash
# cmp.sh: per row, the best ns_min and the best %min over the runs base_*.txt
# (clang default: 256-bit vectors) and w512_*.txt (-mprefer-vector-width=512)
cd "$(dirname "$0")"
awk '
FNR==1 { tag = (FILENAME ~ /^base/) ? "base" : "w512" }
/^[a-z0-9]+-[a-z_]+ / && NF >= 12 {
  k = $1 " " $2 " " $3
  if (!(k in seen)) { seen[k]=1; order[++n]=k }
  t = $4 + 0; p = $10; sub(/%/, "", p)
  if (!((k, tag) in best) || t < best[k, tag]) best[k, tag] = t
  if (!((k, tag) in pb) || p + 0 > pb[k, tag]) pb[k, tag] = p + 0
}
END {
  printf "%-40s %9s %9s %6s %7s %7s\n", "case variant layout", "base_ns", "512_ns", "ratio", "base%", "512%"
  for (i = 1; i <= n; i++) { k = order[i]
    printf "%-40s %9.2f %9.2f %6.2f %6.1f%% %6.1f%%\n", k, best[k,"base"], best[k,"w512"], best[k,"w512"]/best[k,"base"], pb[k,"base"], pb[k,"w512"] }
}' base_*.txt w512_*.txt
