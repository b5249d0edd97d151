#!/bin/sh
# sslsniff end to end: a TLS session of the test's own on 127.0.0.1:PORT
# (a key and self-signed certificate made here with openssl), its message
# unique to this run ("cbx-tls-PID-secret"): a Python client (OpenSSL's
# SSL_write_ex/SSL_read_ex) sends it, a Python server reads it and answers
# "reply:" + it.  With -p CLIENT exactly two calls must show, the write of
# the message and the read of the reply, each with bcc's DATA block (its
# bytes as sent); -x -l --handshake adds UID/TID/LAT(ms) and the
# handshake; --hexdump shows the hex; --max-buffer-size cuts it with bcc's
# TRUNCATED end mark; openssl s_server (SSL_read) as the server with -c
# openssl shows its read of the message; the header is bcc 0.26's; JSON
# lines carry the data; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/sslsniff.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-sslsniff.XXXXXX)
T=sslsniff
fails=0
TPID= HPID= SPID=
ME=$$
PORT=$((30000 + ME % 15000))
MSG=cbx-tls-$ME-secret
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID $SPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

command -v openssl >/dev/null 2>&1 || { echo "not ok - $T: no openssl command (apt-get install openssl)"; exit 1; }
build_helper bpf_count
need_corebox
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$W/key.pem" -out "$W/cert.pem" -days 1 -subj /CN=cbx \
	> "$W/req.err" 2>&1 || { echo "not ok - $T: openssl req: $(head -c 300 "$W/req.err")"; exit 1; }

cat > "$W/tls.py" <<'PY'
import os, socket, ssl, sys, time
port, cert, key, msg, go, server = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].encode(), sys.argv[5], sys.argv[6]
child = 0
if server == "python":
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port)); s.listen(1)
    child = os.fork()
    if child == 0:
        sctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); sctx.load_cert_chain(cert, key)
        c, _ = s.accept(); t = sctx.wrap_socket(c, server_side=True)
        d = t.recv(4096); t.sendall(b"reply:" + d); t.recv(10); os._exit(0)
print("ready", os.getpid(), child, flush=True)
for _ in range(400):
    if os.path.exists(go): break
    time.sleep(0.05)
else:
    sys.exit("no go file")
cctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT); cctx.check_hostname = False; cctx.verify_mode = ssl.CERT_NONE
t = cctx.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10))
t.sendall(msg)
if server == "python":
    r = t.recv(4096); assert r == b"reply:" + msg, r
else:
    time.sleep(0.5)
t.close()
if child: os.waitpid(child, 0)
print("done", flush=True)
PY

# run LABEL SERVER ARGS...: the helper ready (SERVER python or openssl), the tool, go, stop
run() {
	label=$1 server=$2
	shift 2
	rm -f "$W/go" "$W/helper" # (the old one would be read before the child truncates it)
	if [ "$server" = openssl ]; then
		# its stdin stays open (at end of input s_server drops the connection)
		rm -f "$W/in"
		mkfifo "$W/in"
		exec 3<> "$W/in"
		openssl s_server -accept $PORT -cert "$W/cert.pem" -key "$W/key.pem" -naccept 1 -quiet \
			> "$W/s_server" 2>&1 < "$W/in" &
		SPID=$!
		i=0
		while ! grep -q ":$(printf '%04X' $PORT) 00000000:0000 0A" /proc/net/tcp && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	fi
	python3 "$W/tls.py" $PORT "$W/cert.pem" "$W/key.pem" "$MSG" "$W/go" "$server" > "$W/helper" 2>&1 &
	HPID=$!
	wait_for "$W/helper" '^ready' 50 || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	cpid=$(awk '/^ready/ { print $2 }' "$W/helper") spid=$(awk '/^ready/ { print $3 }' "$W/helper")
	args=$(echo "$@" | sed "s/CLIENT/$cpid/; s/SERVER/$spid/")
	# shellcheck disable=SC2086
	tool_start "$label" "$(case "$*" in *-j*) ;; *) echo FUNC;; esac)" sslsniff $args ||
		{ kill -KILL $HPID; HPID=; return 1; }
	: > "$W/go"
	wait_for "$W/helper" '^done' 100 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	if [ -n "$SPID" ]; then
		exec 3>&-
		wait_pid "$SPID" 30 || kill -KILL "$SPID"
		wait "$SPID" 2>/dev/null
		SPID=
	fi
	sleep 0.3
	snoop_stop "$label"
}

HEAD='FUNC         TIME(s)            COMM             PID     LEN    '

# ---- 1: -p CLIENT: its write and read with their data ------------------------------------------
if run plain python -p CLIENT; then
	out=$W/plain.out
	{
		printf '%s\n' "$HEAD"
		printf 'WRITE/SEND   %-18s %-16s %-7d %-6d\n' T python3 "$cpid" ${#MSG}
		printf '%s\n' '----- DATA -----' "$MSG" '----- END DATA -----' '' ''
		printf 'READ/RECV    %-18s %-16s %-7d %-6d\n' T python3 "$cpid" $((${#MSG} + 6))
		printf '%s\n' '----- DATA -----' "reply:$MSG" '----- END DATA -----' '' ''
	} > "$W/want"
	awk 'NR > 1 && /^(WRITE|READ)/ { $0 = substr($0, 1, 13) sprintf("%-18s", "T") substr($0, 32) } 1' "$out" > "$W/got"
	if cmp -s "$W/want" "$W/got" && awk 'NR == 2 { exit !($2 ~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]$/) }' "$out"; then
		ok "-p: the client's write of '$MSG' and read of the reply, bcc's header, lines and DATA blocks byte for byte"
	else notok "-p: $(diff "$W/want" "$W/got" | head -10 | tr '\n' '|')"; fi
fi

# ---- 2: -x -l --handshake: UID TID LAT(ms) and the handshake ---------------------------------------
if run hs python -p CLIENT -x -l --handshake; then
	out=$W/hs.out
	if [ "$(head -1 "$out")" = "$HEAD UID     TID     LAT(ms)" ] &&
		[ "$(awk -v p="$cpid" '$1 == "HANDSHAKE" && $4 == p && $5 == 1 && $6 == 0 && $7 == p && $8 ~ /^[0-9]+\.[0-9][0-9][0-9]$/' "$out" | wc -l)" = 1 ] &&
		[ "$(awk -v p="$cpid" '$1 == "WRITE/SEND" && $4 == p && $6 == 0 && $7 == p && $8 ~ /^[0-9]+\.[0-9][0-9][0-9]$/' "$out" | wc -l)" = 1 ]; then
		ok "-x -l --handshake: UID 0, TID, LAT(ms) columns and one HANDSHAKE line of the client"
	else notok "-x -l: $(head -4 "$out" | tr '\n' '|')"; fi
fi

# ---- 3: --hexdump, --max-buffer-size ------------------------------------------------------------
if run hex python -p CLIENT --hexdump --max-buffer-size 8; then
	out=$W/hex.out
	hex=$(printf '%s' "$MSG" | head -c 8 | od -An -tx1 | tr -d ' \n')
	if grep -qx "$hex" "$out" && grep -qx -- "----- END DATA (TRUNCATED, $((${#MSG} - 8)) bytes lost) -----" "$out"; then
		ok "--hexdump --max-buffer-size 8: '$hex' and the TRUNCATED end mark ($((${#MSG} - 8)) bytes lost)"
	else notok "--hexdump: $(head -6 "$out" | tr '\n' '|')"; fi
fi

# ---- 4: openssl s_server: its SSL_read of the message, -c openssl --------------------------------
if run ossl openssl -c openssl; then
	out=$W/ossl.out
	if [ "$(awk '$1 == "READ/RECV" && $3 == "openssl"' "$out" | wc -l)" -ge 1 ] && grep -qx -- "$MSG" "$out" &&
		! awk 'NR > 1 && /^(READ|WRITE|HANDSHAKE)/ && $3 != "openssl"' "$out" | grep -q .; then
		ok "openssl s_server: its READ/RECV of '$MSG'; -c openssl: nothing of python3"
	else notok "s_server: $(head -6 "$out" | tr '\n' '|') server: $(head -c 200 "$W/s_server")"; fi
fi

# ---- 5: JSON -----------------------------------------------------------------------------------------
if run j python -j -p SERVER; then
	if python3 - "$W/j.out" "$MSG" "$spid" <<'PY'
import json, sys
msg, spid = sys.argv[2], int(sys.argv[3])
ev = [json.loads(l) for l in open(sys.argv[1])]
got = [(e["func"], e["pid"], e["len"], e["data"]) for e in ev]
assert got == [("READ/RECV", spid, len(msg), msg), ("WRITE/SEND", spid, len(msg) + 6, "reply:" + msg)], got
PY
	then ok "-j -p SERVER: the server's read and write with their data"
	else notok "-j: $(head -c 400 "$W/j.out")"; fi
fi

snoop_left
[ "$fails" = 0 ]
