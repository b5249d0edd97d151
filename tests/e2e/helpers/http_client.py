#!/usr/bin/env python3
"""A client the exporter test controls byte for byte (raw sockets, so a
malformed or slow request is exactly what the test says).

    http_client.py PORT get PATH [METHOD]   one request; prints the status
                                             code, then the body (to stdout)
    http_client.py PORT raw HEX              send these bytes, print the status
                                             code of the answer (or "closed")
    http_client.py PORT big N                a request head with an N-byte header
    http_client.py PORT headers N            a request with N header lines
    http_client.py PORT fuzz N               N requests of random pieces (fixed seed),
                                             each half-closed; prints "sent N"
    http_client.py PORT idle N SECS          open N connections that send
                                             nothing, plus one that sends a byte
                                             every 0.5 s; print how many the
                                             server closed within SECS
Every socket has a timeout: nothing here can hang the test.
"""
import socket
import sys
import time


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=15)
    return s


def answer(s):
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    return data


def status_of(data):
    if not data:
        return "closed"
    line = data.split(b"\r\n", 1)[0].decode("latin-1")
    parts = line.split(" ")
    return parts[1] if len(parts) > 1 else "bad:" + line


def request(port, raw):
    s = connect(port)
    try:
        s.sendall(raw)
    except (BrokenPipeError, ConnectionResetError):
        pass
    data = answer(s)
    s.close()
    return data


def main():
    port = int(sys.argv[1])
    mode = sys.argv[2]
    if mode == "get":
        method = sys.argv[4] if len(sys.argv) > 4 else "GET"
        data = request(port, ("%s %s HTTP/1.1\r\nHost: x\r\n\r\n" % (method, sys.argv[3])).encode())
        head, _, body = data.partition(b"\r\n\r\n")
        print(status_of(data))
        sys.stdout.write(body.decode("utf-8", "replace"))
    elif mode == "raw":
        print(status_of(request(port, bytes.fromhex(sys.argv[3]))))
    elif mode == "big":
        n = int(sys.argv[3])
        print(status_of(request(port, b"GET /metrics HTTP/1.1\r\nX-Big: " + b"a" * n + b"\r\n\r\n")))
    elif mode == "headers":
        n = int(sys.argv[3])
        hdrs = b"".join(b"X-H%d: v\r\n" % i for i in range(n))
        print(status_of(request(port, b"GET /metrics HTTP/1.1\r\n" + hdrs + b"\r\n")))
    elif mode == "fuzz":
        import random
        random.seed(21)
        parts = [b"GET", b"HEAD", b"POST", b" ", b"/metrics", b"/healthz", b"?x=1", b" HTTP/1.1",
                 b" HTTP/1.0", b"\r\n", b"\n", b"Host: x", b"\x00", b"\xff", b"%00", b"\r\n\r\n",
                 b"a" * 5000, b":", b"\t", b"\x1b[2J"]
        n = int(sys.argv[3])
        for _ in range(n):
            s = connect(port)
            msg = b"".join(random.choice(parts) for _ in range(random.randint(1, 12)))
            try:
                s.sendall(msg)
                s.shutdown(socket.SHUT_WR)
                answer(s)
            except OSError:
                pass
            s.close()
        print("sent %d" % n)
    elif mode == "idle":
        n, secs = int(sys.argv[3]), float(sys.argv[4])
        socks = [connect(port) for _ in range(n)]
        slow = connect(port)
        for s in socks + [slow]:
            s.setblocking(False)
        closed = set()
        end = time.time() + secs
        sent = 0
        while time.time() < end and len(closed) < n + 1:
            if slow not in closed and sent < len(b"GET /metrics HTTP/1.1\r\n"):
                try:
                    slow.send(b"GET /metrics HTTP/1.1\r\n"[sent:sent + 1])
                    sent += 1
                except (BrokenPipeError, ConnectionResetError, BlockingIOError):
                    pass
            for s in socks + [slow]:
                if s in closed:
                    continue
                try:
                    if s.recv(4096) == b"":
                        closed.add(s)
                except BlockingIOError:
                    pass
                except (ConnectionResetError, OSError):
                    closed.add(s)
            time.sleep(0.5)
        print(len(closed))
    else:
        sys.exit("usage: see the top of this file")


if __name__ == "__main__":
    main()
