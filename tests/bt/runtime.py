#!/usr/bin/env python3
"""Run bpftrace's own runtime test suite (tests/runtime of a bpftrace checkout,
tag v0.17.0) against any bpftrace-compatible binary: bpftrace itself for
calibration, or corebox's `bpftrace` applet.

The case format and its meaning follow bpftrace's engine (parser.py and
runner.py of that tag): EXPECT is a regular expression searched in the merged
stdout+stderr, the workload (AFTER) starts once the probes are attached, the
case's TIMEOUT runs from then on, and a case that times out still passes when
its output matched. Differences, on purpose:
  - --verify-llvm-ir and BPFTRACE_VERIFY_LLVM_IR are dropped (no LLVM here);
  - "attached" is bpftrace's __BPFTRACE_NOTIFY_PROBES_ATTACHED line when the
    binary prints it, else its "Attaching N probes..." line (-f json: its
    attached_probes object) plus a short grace;
  - `pkill bpftrace` / `pidof bpftrace` in a case are narrowed to the case's
    own process group, so parallel cases and other users' bpftrace survive;
  - a case that needs something this machine or build lacks is a skip with the
    reason (a testprogs program we did not write, kprobes, an --info feature).
"""
import os, re, select, signal, subprocess, sys, threading, time, platform
from concurrent.futures import ThreadPoolExecutor

ATTACH_TIMEOUT = 5.0
KPROBE_RE = re.compile(r'(^|[\s{};,\'"])(kprobe|kretprobe|k|kr):[A-Za-z_*]')
# a name followed by a glob character is a pattern, not one program
TESTPROG_RE = re.compile(r'testprogs/([A-Za-z0-9_]+)(?![A-Za-z0-9_*?\[])')
TESTLIB_RE = re.compile(r'testlibs/([A-Za-z0-9_.]+)')


def parse_suite(path):
    """Cases are blocks separated by blank lines; '#' lines are comments."""
    cases, block = [], []
    with open(path, errors='replace') as f:
        lines = f.read().split('\n')
    for line in lines + ['']:
        if line.startswith('#'):
            continue
        if line.strip():
            block.append(line)
            continue
        if not block:
            continue
        c = {'REQUIRES': [], 'REQUIRES_FEATURE': [], 'ENV': {}, 'WILL_FAIL': False}
        for item in block:
            key, _, val = item.strip().partition(' ')
            val = ' '.join(val.split())
            if key in ('REQUIRES', 'REQUIRES_FEATURE'):
                c[key].append(val)
            elif key == 'ENV':
                for kv in val.split():
                    k, _, v = kv.partition('=')
                    c['ENV'][k] = v
            elif key == 'WILL_FAIL':
                c['WILL_FAIL'] = True
            elif key == 'TIMEOUT':
                c[key] = float(val)
            else:
                c[key] = val
        block = []
        if 'NAME' in c:
            cases.append(c)
    return cases


def kver(s):
    return [int(x) for x in re.findall(r'\d+', s)[:3]]


class Env:
    def __init__(self, suite_dir, binary, testprogs, workdir):
        self.suite_dir, self.binary, self.testprogs = suite_dir, binary, testprogs
        self.workdir = workdir
        self.bindir = os.path.join(workdir, 'bin')
        os.makedirs(self.bindir, exist_ok=True)
        link = os.path.join(self.bindir, 'bpftrace')
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(os.path.abspath(binary), link)
        self.testlibs = os.path.join(os.path.dirname(os.path.abspath(testprogs)), 'testlibs')
        for name, target in (('runtime', suite_dir), ('testprogs', testprogs), ('testlibs', self.testlibs)):
            p = os.path.join(workdir, name)
            if os.path.lexists(p):
                os.unlink(p)
            os.symlink(os.path.abspath(target), p)
        self.path = self.bindir + ':' + os.environ.get('PATH', '/usr/sbin:/usr/bin:/sbin:/bin')
        self.kernel = kver(platform.release())
        self.machine = platform.machine().lower()
        self.kprobes = any(os.path.exists(p) for p in (
            '/sys/kernel/tracing/kprobe_events', '/sys/kernel/debug/tracing/kprobe_events'))
        self.notify = self._probe_notify()
        self.features, self.features_from = self._features()

    def _run(self, argv, extra_env=None):
        env = {'PATH': self.path}
        env.update(extra_env or {})
        try:
            return subprocess.run(argv, cwd=self.workdir, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=20,
                                  universal_newlines=True, errors='replace').stdout
        except (OSError, subprocess.TimeoutExpired):
            return ''

    def _probe_notify(self):
        out = self._run([os.path.join(self.bindir, 'bpftrace'), '-e', 'BEGIN { exit(); }'],
                        {'__BPFTRACE_NOTIFY_PROBES_ATTACHED': '1'})
        return '__BPFTRACE_NOTIFY_PROBES_ATTACHED' in out

    def _features(self):
        """bpftrace --info of the binary under test; corebox has none, so then
        the kernel facts come from an installed bpftrace's --info."""
        src = self.binary
        out = self._run([os.path.join(self.bindir, 'bpftrace'), '--info'])
        if 'Loop support' not in out:
            src = None
            for cand in ('/usr/bin/bpftrace', '/usr/sbin/bpftrace', '/usr/local/bin/bpftrace'):
                if os.path.exists(cand) and os.path.realpath(cand) != os.path.realpath(self.binary):
                    out, src = self._run([cand, '--info']), cand
                    break
        if not src:
            return {}, 'none (no --info: cases with REQUIRES_FEATURE are skipped)'
        f = lambda s: s in out
        feats = {
            'loop': f('Loop support: yes'), 'probe_read_kernel': f('probe_read_kernel: yes'),
            'btf': f('btf: yes'), 'kfunc': f('kfunc: yes'), 'dpath': f('dpath: yes'),
            'uprobe_refcount': f('uprobe refcount (depends on Build:bcc bpf_attach_uprobe refcount): yes'),
            'signal': f('send_signal: yes'), 'iter:task': f('iter:task: yes'),
            'iter:task_file': f('iter:task_file: yes'),
            'libpath_resolv': f('bcc library path resolution: yes'),
            'dwarf': f('libdw (DWARF support): yes'), 'kprobe_multi': f('kprobe_multi: yes'),
            'aot': False, 'skboutput': f('skboutput: yes'),
        }
        return feats, src


def command_of(case):
    if 'RUN' in case:
        cmd = case['RUN'].replace('{{BPFTRACE}}', 'bpftrace')
    else:
        cmd = "bpftrace -e '%s'" % case['PROG']
    return cmd.replace(' --verify-llvm-ir', '')


def scope_kills(cmd, pgid):
    """pkill/pidof of bpftrace must reach only this case's bpftrace."""
    cmd = re.sub(r'pkill((?:\s+-\S+)*)\s+bpftrace\b', r'pkill\1 -g %d -x bpftrace' % pgid, cmd)
    return re.sub(r'\$\(pidof bpftrace\)', '$(pgrep -g %d -x bpftrace)' % pgid, cmd)


def with_scripts(env, text):
    """text and the runtime/scripts/*.bt files it runs"""
    for script in re.findall(r'runtime/(scripts/[\w.-]+\.bt)', text):
        try:
            text += ' ' + open(os.path.join(env.suite_dir, script), errors='replace').read()
        except OSError:
            pass
    return text


def skip_reason(env, case):
    if 'ARCH' in case and env.machine not in [a.strip() for a in case['ARCH'].split('|')]:
        return 'arch %s only' % case['ARCH']
    if 'MIN_KERNEL' in case and kver(case['MIN_KERNEL']) > env.kernel:
        return 'kernel >= %s' % case['MIN_KERNEL']
    if 'MAX_KERNEL' in case and kver(case['MAX_KERNEL']) < env.kernel:
        return 'kernel <= %s' % case['MAX_KERNEL']
    text = ' '.join([case.get(k, '') for k in ('RUN', 'PROG', 'AFTER', 'BEFORE')] + case['REQUIRES'])
    for prog in TESTPROG_RE.findall(text):
        if not os.access(os.path.join(env.testprogs, prog), os.X_OK):
            return 'needs testprogs/%s (not written here)' % prog
    for lib in TESTLIB_RE.findall(text):
        if not os.path.exists(os.path.join(env.testlibs, lib)):
            return 'needs testlibs/%s (not written here)' % lib
    progs = with_scripts(env, case.get('PROG', '') + ' ' + case.get('RUN', ''))
    # listing kprobes (-l) and refusals (WILL_FAIL: banned kretprobes) need none
    if not env.kprobes and KPROBE_RE.search(progs) and not case['WILL_FAIL'] and \
            not re.search(r'\s-l\s', case.get('RUN', '')):
        return 'needs kprobes (this kernel has none)'
    for req in case['REQUIRES_FEATURE']:
        for feat in req.split():
            neg = feat.startswith('!')
            name = feat.lstrip('!')
            if name not in env.features:
                return 'needs --info feature %s (unknown)' % name
            if env.features[name] == neg:
                return 'needs feature %s%s' % ('no ' if neg else '', name)
    for req in case['REQUIRES']:
        r = subprocess.run(req, shell=True, cwd=env.workdir, env={'PATH': env.path},
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode != 0:
            return 'unmet REQUIRES %s' % req
    return None


def kill_group(p, sig):
    try:
        os.killpg(p.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


SERIAL = threading.Lock()


def run_case(env, case):
    """Cases that share a fixed file, look up processes by name, run a
    BEFORE program or put a uprobe on a testprogs binary (which fires in
    another case's run of it too) hold SERIAL, so -j N never races them."""
    text = with_scripts(env, ' '.join(case.get(k, '') for k in ('RUN', 'PROG', 'AFTER', 'BEFORE')))
    if re.search(r'/tmp/|pidof|pgrep|pkill|kill |(^|[\s{};,\'"])u[a-z]*:[^:]*testprogs/', text) or 'BEFORE' in case:
        with SERIAL:
            return run_case_now(env, case)
    return run_case_now(env, case)


def run_case_now(env, case):
    reason = skip_reason(env, case)
    if reason:
        return 'skip', reason, ''
    timeout = case.get('TIMEOUT', 5.0)
    before = after = None
    output = ''
    cenv = {'PATH': env.path, '__BPFTRACE_NOTIFY_PROBES_ATTACHED': '1'}
    cenv.update(case['ENV'])
    try:
        if 'BEFORE' in case:
            before = subprocess.Popen(case['BEFORE'], shell=True, cwd=env.workdir,
                                      env={'PATH': env.path}, start_new_session=True,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            child = os.path.basename(case['BEFORE'].split()[-1])
            deadline = time.time() + timeout
            pid = ''
            # by name, or as pidof also finds it, by argv[0] (a program that
            # exec'd another keeps it: two_usdt_semaphore_tests)
            by_argv0 = '^(\\S*/)?%s( |$)' % re.escape(child)
            while time.time() < deadline:
                for how in (['-x', child[:15]], ['-f', by_argv0]):
                    pid = subprocess.run(['pgrep', '-s', str(before.pid)] + how,
                                         stdout=subprocess.PIPE, universal_newlines=True).stdout.split()
                    if pid:
                        break
                if pid:
                    break
                time.sleep(0.1)
            if not pid:
                return 'not ok', 'BEFORE %s never started' % case['BEFORE'], ''
        cmd = command_of(case)
        if before:
            cmd = cmd.replace('{{BEFORE_PID}}', pid[0])
        p = subprocess.Popen(cmd, shell=True, cwd=env.workdir, env=cenv, start_new_session=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        fd = p.stdout.fileno()
        buf = b''
        attached_at = None
        deadline = time.time() + ATTACH_TIMEOUT
        timed_out = False
        eof = False
        while True:
            now = time.time()
            if attached_at is None:
                text = buf.decode(errors='replace')
                if '__BPFTRACE_NOTIFY_PROBES_ATTACHED\n' in text or \
                        (not env.notify and re.search(r'^(Attaching \d+ probes?\.\.\.|\{"type": "attached_probes".*)\n', text, re.M)):
                    attached_at = now
                    deadline = now + timeout
                    if 'AFTER' in case:
                        if not env.notify:
                            time.sleep(0.3)   # "Attaching" comes before the attach
                        after = subprocess.Popen(scope_kills(case['AFTER'], p.pid), shell=True,
                                                 cwd=env.workdir, env={'PATH': env.path},
                                                 start_new_session=True,
                                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if eof:
                break
            if now >= deadline:
                timed_out = True
                break
            r, _, _ = select.select([fd], [], [], min(0.1, max(0.0, deadline - now)))
            if r:
                chunk = os.read(fd, 65536)
                if not chunk:
                    eof = True
                buf += chunk
        if timed_out:
            kill_group(p, signal.SIGTERM)
            end = time.time() + 2
            while time.time() < end:
                r, _, _ = select.select([fd], [], [], 0.1)
                if r:
                    chunk = os.read(fd, 65536)
                    if not chunk:
                        break
                    buf += chunk
            kill_group(p, signal.SIGKILL)
        try:
            rc = p.wait(timeout=3)
        except subprocess.TimeoutExpired:
            kill_group(p, signal.SIGKILL)
            rc = p.wait()
        p.stdout.close()
        output = buf.decode(errors='replace')
    finally:
        for q in (before, after):
            if q and q.poll() is None:
                kill_group(q, signal.SIGKILL)
                q.wait()
    try:
        matched = re.search(case['EXPECT'], output, re.M)
    except re.error:
        matched = case['EXPECT'] in output
    if timed_out and not matched:
        return 'not ok', 'timeout %gs%s' % (timeout, '' if attached_at else ' (never attached)'), output
    if rc != 0 and not case['WILL_FAIL'] and not timed_out:
        return 'not ok', 'exit %d' % rc, output
    if matched:
        return 'ok', '', output
    return 'not ok', 'no match for EXPECT', output


def first_line(output):
    """The first error line (bpftrace 0.17 warns about RLIMIT_MEMLOCK first,
    harmlessly), else the first line of output."""
    for line in output.split('\n'):
        if re.search(r'ERROR|[Ee]rror|invalid|unrecognized', line) and 'RLIMIT_MEMLOCK' not in line:
            return line.strip()[:160]
    for line in output.split('\n'):
        line = line.strip()
        if line and not line.startswith('__BPFTRACE_NOTIFY') and not line.startswith('Attaching '):
            return line[:160]
    return '(no output)'


def main():
    args = sys.argv[1:]
    jobs, results_file = 2, None
    while args and args[0].startswith('-'):
        opt = args.pop(0)
        if opt == '-j':
            jobs = int(args.pop(0))
        elif opt == '-o':
            results_file = args.pop(0)
        else:
            sys.exit('usage: runtime.py [-j N] [-o RESULTS.tsv] SUITE_DIR BINARY TESTPROGS WORKDIR [SUITE...]')
    if len(args) < 4:
        sys.exit('usage: runtime.py [-j N] [-o RESULTS.tsv] SUITE_DIR BINARY TESTPROGS WORKDIR [SUITE...]')
    suite_dir, binary, testprogs, workdir = args[:4]
    env = Env(suite_dir, binary, testprogs, workdir)
    names = args[4:] or sorted(n for n in os.listdir(suite_dir)
                               if os.path.isfile(os.path.join(suite_dir, n)) and not n.startswith('.'))
    print('# binary %s; attach signal: %s; features from %s' % (
        binary, 'notify line' if env.notify else '"Attaching" line', env.features_from))
    out = open(results_file, 'w') if results_file else None
    totals = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for suite in names:
            cases = parse_suite(os.path.join(suite_dir, suite))
            results = list(pool.map(lambda c: run_case(env, c), cases))
            counts = {'ok': 0, 'not ok': 0, 'skip': 0}
            for case, (status, reason, output) in zip(cases, results):
                counts[status] += 1
                detail = reason
                if status == 'not ok':
                    detail += ': ' + first_line(output)
                print('%s %s.%s%s' % (status, suite, case['NAME'], ' # ' + detail if detail else ''))
                if out:
                    out.write('%s\t%s\t%s\t%s\n' % (suite, case['NAME'], status,
                                                    detail.replace('\t', ' ')))
            totals.append((suite, len(cases), counts))
            sys.stdout.flush()
    print('# suite            cases  pass  fail  skip')
    for suite, n, c in totals:
        print('# %-16s %5d %5d %5d %5d' % (suite, n, c['ok'], c['not ok'], c['skip']))
    n = sum(t[1] for t in totals)
    print('# %-16s %5d %5d %5d %5d' % ('total', n, *[sum(t[2][k] for t in totals)
                                                    for k in ('ok', 'not ok', 'skip')]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
