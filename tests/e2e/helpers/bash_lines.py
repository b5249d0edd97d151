"""bash_lines N TAG: an interactive bash (no rc files) on a pseudo
terminal, so that it reads with readline; types N lines "echo TAG_i"
(i = 1..N) and waits for each one's output, then "exit".  Prints
"pid PID" (the bash) first and "done N" at the end."""
import os
import pty
import select
import sys
import time

n, tag = int(sys.argv[1]), sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execve("/bin/bash", ["bash", "--norc", "--noprofile", "-i"],
              {"PS1": "cbx$ ", "TERM": "dumb", "PATH": os.environ.get("PATH", "/usr/bin:/bin")})
print("pid", pid, flush=True)
seen = b""


def expect(what, timeout=10.0):
    global seen
    end = time.time() + timeout
    while what not in seen:
        r, _, _ = select.select([fd], [], [], max(0.0, end - time.time()))
        if not r:
            sys.exit("timed out waiting for %r: %r" % (what, seen[-200:]))
        seen += os.read(fd, 4096)
    seen = seen[seen.index(what) + len(what):]


expect(b"cbx$ ")
for i in range(1, n + 1):
    os.write(fd, b"echo %s_%d\n" % (tag.encode(), i))
    expect(b"\n%s_%d\r\n" % (tag.encode(), i))
    expect(b"cbx$ ")
os.write(fd, b"exit\n")
os.waitpid(pid, 0)
print("done", n, flush=True)
