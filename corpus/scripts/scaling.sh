#!/usr/bin/env bash
# Scaling curve of `btfkit link` (and libbpf's add_btf + dedup, side by side) on per-CU splits
# of vmlinux 6.18 into 100, 300, 1,000 and 3,000 units: median wall time and peak RSS of
# RUNS runs each, written to docs/scaling.tsv and plotted to docs/scaling.png (gnuplot).
#   corpus/scripts/scaling.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
tsv="$root/docs/scaling.tsv"
command -v gnuplot >/dev/null || apt-get install -y -qq gnuplot-nox >/dev/null
echo -e "units\tinput_types\tbtfkit_s\tbtfkit_rss_mb\tlibbpf_s\tlibbpf_rss_mb" > "$tsv"
for n in 100 300 1000 3000; do
  out=$("$root/corpus/scripts/bench.sh" "link$n" "$runs" | tail -1)
  dir=${BTFKIT_BENCH_DIR:-$root/corpus/target/bench}/link$n
  types=$(grep -o 'input_types=[0-9]*' "$dir/err.libbpf" | cut -d= -f2)
  read -r as _ ar bs _ br < "$dir/medians" # wall, CPU, RSS KB: btfkit, then libbpf
  echo -e "$n\t$types\t$as\t$((${ar%.*} / 1024))\t$bs\t$((${br%.*} / 1024))" >> "$tsv"
  echo "$out"
done
gnuplot <<GP
set terminal pngcairo size 900,420 font "sans,10"
set output "$root/docs/scaling.png"
set multiplot layout 1,2 title "link of per-CU splits of vmlinux 6.18 (2 cores; median of $runs runs)"
set logscale xy; set grid; set key top left
set xlabel "input types"; set ylabel "wall seconds"
plot "$tsv" using 2:3 with linespoints title "btfkit link", "$tsv" using 2:5 with linespoints title "libbpf add\\\\_btf + dedup"
set ylabel "peak RSS (MB)"
plot "$tsv" using 2:4 with linespoints title "btfkit link", "$tsv" using 2:6 with linespoints title "libbpf add\\\\_btf + dedup"
unset multiplot
GP
echo "wrote $tsv and docs/scaling.png"
