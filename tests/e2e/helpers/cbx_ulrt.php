<?php
// tests/e2e/ulang_rt.sh's PHP program (run with USE_ZEND_DTRACE=1): after
// the go signal (SIGUSR1) N calls of UlRtK::ul_rt_meth, F calls of the
// function ul_rt_fn, E thrown exceptions and I includes of INCFILE, then
// "done".  Usage: php cbx_ulrt.php N F E I INCFILE
class UlRtK { function ul_rt_meth($x) { return $x; } }
function ul_rt_fn($x) { return $x; }
[$n, $f, $e, $inc] = array_map('intval', array_slice($argv, 1, 4));
$k = new UlRtK();
pcntl_sigprocmask(SIG_BLOCK, [SIGUSR1]);
pcntl_alarm(60);
echo "ready\n";
pcntl_sigwaitinfo([SIGUSR1]);
for ($i = 0; $i < $n; $i++) $k->ul_rt_meth($i);
for ($i = 0; $i < $f; $i++) ul_rt_fn($i);
for ($i = 0; $i < $e; $i++) { try { throw new Exception("x"); } catch (Exception $x) {} }
for ($i = 0; $i < $inc; $i++) include $argv[5];
echo "done\n";
pcntl_sigwaitinfo([SIGUSR1]);
