#!/usr/bin/env bash
# flop-census.sh [--quick] [BUILD] - the flops of the compiled kernels
# against perfmodel's executed count (perfmodel/flopdag.c), per case and
# variant.
#
# For each case and variant, the variant's element function (the part of
# src/variant/<variant>.c above its driver) is compiled alone for one
# element, scalar (-fno-vectorize -fno-slp-vectorize: one instruction, one
# element), fully unrolled as the library builds it; the floating-point
# instructions of the resulting straight-line function are counted: add,
# sub, mul, div 1 each, fused multiply-add 2 (perfmodel's convention).
# The count must equal perfmodel's `flops` wherever the kernel reads no
# coefficient in place or the loop order is QSS; SQS and SSQ, where they
# read poisson_kappa's and elasticity's coefficients in place, execute
# more ("above"; perfmodel/flopdag.c says why), never less.  Any other
# difference fails (exit 1).
#
# --quick skips prism6 and hex8 elasticity (their compiles take minutes).
# CC (default clang-19) compiles; the flags are the library's (-O3
# -march=native and the unroll threshold).  BUILD (default build) holds
# bin/perfmodel.  Prints one line per case and variant, then
# "census: N equal, N above, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
quick=0
if [ "${1:-}" = --quick ]; then
  quick=1
  shift
fi
build=${1:-build}
cc=${CC:-}
if [ -z "$cc" ] || ! command -v "$cc" >/dev/null 2>&1; then
  cc=$(command -v clang-19 || echo /usr/bin/clang-19)
fi
pm=$build/bin/perfmodel
if [ ! -x "$pm" ]; then
  echo "flop-census: $pm not built" >&2
  exit 2
fi
if [ ! -x "$cc" ]; then
  echo "flop-census: no clang-19 (CC=$cc)" >&2
  exit 2
fi
work=$(mktemp -d /tmp/feint_census_XXXXXX) || exit 2
trap 'rm -rf "$work"' EXIT
"$pm" tables --table 4 --format csv >"$work/model.csv" || exit 2

# model flops of case $1 (e.g. hex8-poisson) and variant $2
model_flops() {
  awk -F, -v c="$1" -v v="$2" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == "flops") col = i; next }
    $1 == c && $2 == v { print $col; exit }' "$work/model.csv"
}

# compiled flops of variant $1, element $2, kernel problem $3 (enum names)
compiled_flops() {
  local v=$1 et=$2 pb=$3 f=$work/probe.c s=$work/probe.s
  sed -n '1,/^#define FEINT_VARIANT_NAME/p' "src/variant/$v.c" | sed '$d' >"$f"
  cat >>"$f" <<EOF
void feint_census_probe(const double *geo, const double *coef, double *A, double *b);
void feint_census_probe(const double *geo, const double *coef, double *A, double *b) {
  ${v}_element(FEINT_$et, FEINT_$pb, geo, coef, 1, A, b, 1);
}
EOF
  "$cc" -O3 -march=native -std=c11 -Iinclude -Isrc -fno-vectorize -fno-slp-vectorize \
    -mllvm -pragma-unroll-threshold=1000000 -S -o "$s" "$f" 2>"$work/cc.err" || return 1
  awk '/^feint_census_probe:/ { on = 1 } on && /^\.Lfunc_end/ { on = 0 } on' "$s" >"$work/body.s"
  # straight-line code only: a branch would make the static count wrong
  if grep -Eq '^\s+j[a-z]+\s' "$work/body.s"; then
    echo "branch"
    return 0
  fi
  awk '/\tv?fn?m(add|sub)[0-9]+sd/ { f += 2; next }
       /\tv?(add|sub|mul|div)sd/ { f += 1; next }
       /\tv?(add|sub|mul|div|fn?m(add|sub)[0-9]+)p[sd]/ { vec++ }
       END { if (vec) print "vector"; else print f + 0 }' "$work/body.s"
}

equal=0 above=0 failed=0
for pb in POISSON CONVDIFF POISSON_KAPPA ELASTICITY_QP ELASTICITY; do
  for et in TET4 PRISM6 HEX8; do
    case $pb in ELASTICITY*) [ $quick = 1 ] && [ $et != TET4 ] && continue ;; esac
    for v in qss_geo_linear qss_geo_generic sqs_geo_linear sqs_geo_generic ssq_geo_linear \
      ssq_geo_generic tensor_geo_linear; do
      kpb=$pb # elasticity runs on elasticity_qp's kernel but for SSQ's and tensor's S form
      [ $pb = ELASTICITY ] && [ "${v#ssq}" = "$v" ] && [ "${v#tensor}" = "$v" ] &&
        kpb=ELASTICITY_QP
      name=$(echo "$et-$pb" | tr 'A-Z' 'a-z')
      m=$(model_flops "$name" "$v")
      c=$(compiled_flops $v $et $kpb) || c="compile-error"
      verdict=FAIL
      if [ -n "$m" ] && [ "$c" -eq "$c" ] 2>/dev/null; then
        inplace=0
        case $pb in POISSON_KAPPA | ELASTICITY*) [ "${v#qss}" = "$v" ] && inplace=1 ;; esac
        if [ "$c" -eq "$m" ]; then
          verdict=equal
        elif [ $inplace = 1 ] && [ "$c" -gt "$m" ]; then
          verdict=above
        fi
      fi
      case $verdict in
        equal) equal=$((equal + 1)) ;;
        above) above=$((above + 1)) ;;
        *) failed=$((failed + 1)) ;;
      esac
      printf '%-22s %-16s model %6s compiled %6s %s\n' "$name" $v "${m:-?}" "$c" $verdict
      [ "$c" = compile-error ] && sed 's/^/    /' "$work/cc.err" | head -5
    done
  done
done
echo "census: $equal equal, $above above, $failed failed ($cc)"
[ $failed -eq 0 ]
