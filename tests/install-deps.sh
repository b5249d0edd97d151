#!/bin/sh
# Install what the build and tests need on a fresh Debian machine (as root).
# Quiet and idempotent: does nothing when everything is present.
need=""
command -v musl-gcc >/dev/null 2>&1 || need="$need musl-tools"
command -v clang >/dev/null 2>&1 || need="$need clang"
command -v llvm-strip >/dev/null 2>&1 || need="$need llvm"
command -v gcc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
[ -f /usr/include/linux/bpf.h ] || need="$need linux-libc-dev"
command -v losetup >/dev/null 2>&1 || need="$need mount"
command -v python3 >/dev/null 2>&1 || need="$need python3"
# the TCP tools' tests: network namespaces and veth (ip), packet loss (nft)
command -v ip >/dev/null 2>&1 || need="$need iproute2"
command -v nft >/dev/null 2>&1 || need="$need nftables"
# libFuzzer's runtime, for the fuzz tests (clang alone may not bring it)
if command -v clang >/dev/null 2>&1; then
	[ -f "$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" ] || need="$need libclang-rt-dev"
else
	need="$need libclang-rt-dev"
fi
if [ -n "$need" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "install-deps: missing:$need (run as root to install them with apt-get)" >&2
		exit 1
	fi
	echo "install-deps: installing$need"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq $need >/dev/null || {
		echo "install-deps: apt-get install$need failed" >&2; exit 1; }
fi
exit 0
