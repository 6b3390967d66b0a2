# Pictures of chain tactile-fwd from samples.csv and the percentiles below; run: gnuplot plot.gp
$residence << EOD
1 0.085 0.241 0.36 0.513 0.925 5.308
2 0.993 1.403 1.675 2.003 3.879 18.459
3 0.494 0.753 0.901 1.091 1.707 15.414
4 0.07 0.148 0.194 0.249 0.541 1.255
EOD
$links << EOD
1 0.685 1.523 1.955 2.407 5.007 26.852
2 0.376 0.841 1.099 1.451 2.935 6.514
3 0.881 2.019 2.359 2.743 5.135 51.557
4 0.769 0.885 0.969 1.067 1.635 49.991
5 0.262 0.456 0.573 0.749 1.611 3.455
EOD
do for [t = 1:2] {
  if (t == 1) { set terminal pngcairo size 960,600 noenhanced; ext = '.png' } else { set terminal svg size 960,600 noenhanced dynamic; ext = '.svg' }
  set output 'rtt-cdf'.ext
  reset; set datafile separator ','
  set title 'chain tactile-fwd: RTT CDF, 1000 probes'
  set xlabel 'RTT (us, log scale)'; set ylabel 'fraction of probes'
  set logscale x; set grid; set key bottom right; set yrange [0:1]
  set xrange [4.18583:420]
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
