# Pictures of chain tactile-fwd from samples.csv and the percentiles below; run: gnuplot plot.gp
$residence << EOD
1 0.074 0.186 0.213 0.334 0.709 1.217
2 0.813 1.091 1.283 1.579 4.207 16.535
3 0.45 0.641 0.777 0.969 2.631 5.697
4 0.068 0.139 0.176 0.24 0.697 4.85
EOD
$links << EOD
1 0.458 1.027 1.267 1.563 2.999 28.907
2 0.262 0.521 0.673 0.845 1.531 4.777
3 1.235 1.699 1.939 2.311 7.567 38.26
4 0.641 0.745 0.805 0.893 2.151 20.092
5 0.266 0.37 0.44 0.577 1.755 5.45
EOD
do for [t = 1:2] {
  if (t == 1) { set terminal pngcairo size 960,600 noenhanced; ext = '.png' } else { set terminal svg size 960,600 noenhanced dynamic; ext = '.svg' }
  set output 'rtt-cdf'.ext
  reset; set datafile separator ','
  set title 'chain tactile-fwd: RTT CDF, 1000 probes'
  set xlabel 'RTT (us, log scale)'; set ylabel 'fraction of probes'
  set logscale x; set grid; set key bottom right; set yrange [0:1]
  set xrange [3.6625:420]
  set arrow 1 from 350, graph 0 to 350, graph 1 nohead dt 2 lw 2 lc rgb 'red'
  set label 1 'budget 350 us' at 350, graph 0.5 right offset -0.5,0 tc rgb 'red'
  plot 'samples.csv' skip 1 using ($4/1000.):(1) smooth cnorm lw 2 title 'RTT'
  set output 'residence'.ext
  reset
  set title "chain tactile-fwd: residence per hop (us, log scale)\nbox p25-p75, line p50, whiskers p1-p99, dot max"
  set logscale y; set grid y; set boxwidth 0.5; set style fill solid 0.3
  set offsets 0, 0, graph 0.08, 0
  set xtics rotate by -25 nomirror; unset key
  set xtics ('fwd-k (kernel) ->' 1, 'fwd-u (user) ->' 2, 'fwd-u (user) <-' 3, 'fwd-k (kernel) <-' 4)
  set xrange [0.5:4.5]
  plot $residence using 1:3:2:6:5 with candlesticks whiskerbars lw 1.5, \
    $residence using 1:4:4:4:4 with candlesticks lt -1 lw 2, \
    $residence using 1:7 with points pt 7 ps 0.6
  set output 'links'.ext
  reset
  set title "chain tactile-fwd: link times (us, log scale)\nbox p25-p75, line p50, whiskers p1-p99, dot max"
  set logscale y; set grid y; set boxwidth 0.5; set style fill solid 0.3
  set offsets 0, 0, graph 0.08, 0
  set xtics rotate by -25 nomirror; unset key
  set xtics ('probe -> fwd-k' 1, 'fwd-k -> fwd-u' 2, 'fwd-u -> server -> fwd-u' 3, 'fwd-u -> fwd-k' 4, 'fwd-k -> probe' 5)
  set xrange [0.5:5.5]
  plot $links using 1:3:2:6:5 with candlesticks whiskerbars lw 1.5, \
    $links using 1:4:4:4:4 with candlesticks lt -1 lw 2, \
    $links using 1:7 with points pt 7 ps 0.6
}
