"""lo_stream N: N writes of 64 KiB over a TCP connection on loopback,
read by a second thread of this process, named cbx_softirq: loopback
delivery runs the NET_RX softirq in the context of the task that sent,
so the softirq tools see net_rx handled under this comm on the CPU the
process is pinned to (taskset)."""
import socket
import sys
import threading

with open("/proc/self/comm", "w") as f:
    f.write("cbx_softirq")
n = int(sys.argv[1])
lsn = socket.socket()
lsn.bind(("127.0.0.1", 0))
lsn.listen(1)
out = socket.create_connection(lsn.getsockname())
inc, _ = lsn.accept()


def drain():
    while inc.recv(1 << 20):
        pass


reader = threading.Thread(target=drain)
reader.start()
buf = b"x" * (1 << 16)
for _ in range(n):
    out.sendall(buf)
out.close()
reader.join()
print("done", n)
