set terminal pngcairo size 1400,600 noenhanced
set output 'bench/report/amd-epyc-znver4-2c2t_2026-12-07-0731_znver4.png'
set title 'feint on amd-epyc-znver4-2c2t (2026-12-07): measured min vs in-run lower bound, ns per element'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set grid ytics
set ylabel 'ns / element (log)'
set xtics rotate by -45 font ',8'
set key top left
plot 'bench/report/amd-epyc-znver4-2c2t_2026-12-07-0731_znver4.dat' using 2:xtic(1) title 'measured (min)', '' using 3 title 'lower bound'
