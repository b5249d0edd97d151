# tests/e2e/ulang_rt.sh's Ruby program: after the go signal (SIGUSR1) N
# calls of UlRtK#ul_rt_meth, M UlRtK objects, E raised exceptions and L
# loads of the file LOADFILE, then "done".  Usage: ruby cbx_ulrt.rb N M E L LOADFILE
n, m, e, l = ARGV[0, 4].map(&:to_i)
class UlRtK
  def ul_rt_meth(x) = x
end
k = UlRtK.new
Signal.trap("USR1") { $go = true }
$stdout.puts "ready"; $stdout.flush
sleep 0.02 until $go
# Ruby (2.5+, bug #14582) fires method__entry/return only while some
# TracePoint of those events is enabled: ruby's documented way to turn them on
TracePoint.new(:call, :return) {}.enable
n.times { |i| k.ul_rt_meth(i) }
m.times { UlRtK.new }
e.times { begin; raise "x"; rescue StandardError; end }
l.times { load ARGV[4] }
$stdout.puts "done"; $stdout.flush
sleep 60
