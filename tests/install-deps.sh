#!/bin/sh
# Install what the build and tests need on a fresh Debian machine (as root).
# Quiet and idempotent: does nothing when everything is present.
#
# On an x86_64 host it also installs the arm64 and 32-bit arm cross build
# and test pieces (make ARCH=arm64 / ARCH=arm, their unit tests under
# qemu-user in make check, the arm VMs of make vmtest): dpkg's arm64 and
# armhf architectures, gcc-aarch64-linux-gnu, musl-dev:arm64,
# linux-libc-dev:arm64, gcc-arm-linux-gnueabihf, musl-dev:armhf,
# linux-libc-dev-armhf-cross, qemu-user, qemu-system-arm, without
# recommends.  COREBOX_NO_ARM64=1 leaves them out.
#
# tests/e2e/ulang_rt.sh's language runtimes with USDT probes in Debian's
# builds (ruby: libruby; php-cli: the php binary), without recommends:
# about 10 MB of packages, 52 MB installed (COREBOX_NO_RUNTIMES=1 leaves
# them out: their checks are then named skips).  Not the JRE (190 MB):
# that test's Java checks run where one is installed.
need=""
arm=""
rt=""
command -v musl-gcc >/dev/null 2>&1 || need="$need musl-tools"
command -v clang >/dev/null 2>&1 || need="$need clang"
command -v llvm-strip >/dev/null 2>&1 || need="$need llvm"
command -v gcc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
[ -f /usr/include/linux/bpf.h ] || need="$need linux-libc-dev"
command -v losetup >/dev/null 2>&1 || need="$need mount"
command -v python3 >/dev/null 2>&1 || need="$need python3"
# ext4 images for the file system tools' tests (host side of make vmtest too)
command -v mkfs.ext4 >/dev/null 2>&1 || [ -x /sbin/mkfs.ext4 ] || need="$need e2fsprogs"
# <sys/sdt.h>: the USDT probe in the dynamic-tracing test helper
[ -f /usr/include/x86_64-linux-gnu/sys/sdt.h ] || [ -f /usr/include/sys/sdt.h ] ||
	[ -f "/usr/include/$(gcc -dumpmachine 2>/dev/null)/sys/sdt.h" ] || need="$need systemtap-sdt-dev"
# tests/e2e/usyms.sh: C++, Rust and Go programs to name, debug files split
# off (objcopy), MiniDebugInfo (xz)
command -v g++ >/dev/null 2>&1 || need="$need g++"
command -v rustc >/dev/null 2>&1 || need="$need rustc"
command -v objcopy >/dev/null 2>&1 || need="$need binutils"
command -v xz >/dev/null 2>&1 || need="$need xz-utils"
command -v go >/dev/null 2>&1 || need="$need golang-go"
command -v ld.lld >/dev/null 2>&1 || need="$need lld" # a Go PIE linked by ld.lld
# the TCP tools' tests: network namespaces and veth (ip), packet loss (nft)
command -v ip >/dev/null 2>&1 || need="$need iproute2"
command -v nft >/dev/null 2>&1 || need="$need nftables"
if [ "${COREBOX_NO_RUNTIMES:-0}" != 1 ]; then
	command -v ruby >/dev/null 2>&1 || rt="$rt ruby"
	command -v php >/dev/null 2>&1 || rt="$rt php-cli"
fi
# libFuzzer's runtime, for the fuzz tests (clang alone may not bring it)
if command -v clang >/dev/null 2>&1; then
	[ -f "$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" ] || need="$need libclang-rt-dev"
else
	need="$need libclang-rt-dev"
fi
if [ "${COREBOX_NO_ARM64:-0}" != 1 ] && [ "$(uname -m)" = x86_64 ]; then
	command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || arm="$arm gcc-aarch64-linux-gnu"
	[ -f /usr/lib/aarch64-linux-musl/libc.a ] || arm="$arm musl-dev:arm64"
	[ -d /usr/include/aarch64-linux-gnu/asm ] || [ -d /usr/aarch64-linux-gnu/include/asm ] ||
		arm="$arm linux-libc-dev:arm64"
	command -v qemu-aarch64 >/dev/null 2>&1 || command -v qemu-aarch64-static >/dev/null 2>&1 ||
		arm="$arm qemu-user"
	command -v qemu-system-aarch64 >/dev/null 2>&1 || arm="$arm qemu-system-arm"
	# 32-bit ARM (make ARCH=arm): the armhf cross compiler, musl for
	# armhf, and the armhf UAPI asm/ headers from the cross package (an
	# arch-all package: linux-libc-dev:armhf would have to match the host's
	# linux-libc-dev version, which bookworm-security does not always carry)
	command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1 || arm="$arm gcc-arm-linux-gnueabihf"
	[ -f /usr/lib/arm-linux-musleabihf/libc.a ] || arm="$arm musl-dev:armhf"
	[ -d /usr/include/arm-linux-gnueabihf/asm ] || [ -d /usr/arm-linux-gnueabihf/include/asm ] ||
		arm="$arm linux-libc-dev-armhf-cross"
fi
if [ -n "$need$arm$rt" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "install-deps: missing:$need$arm$rt (run as root to install them with apt-get)" >&2
		exit 1
	fi
	echo "install-deps: installing$need$arm$rt"
	export DEBIAN_FRONTEND=noninteractive
	for a in arm64 armhf; do
		case $arm in
		*:$a*)
			dpkg --print-foreign-architectures | grep -qx $a || dpkg --add-architecture $a || {
				echo "install-deps: dpkg --add-architecture $a failed" >&2; exit 1; } ;;
		esac
	done
	apt-get update -qq >/dev/null || { echo "install-deps: apt-get update failed" >&2; exit 1; }
	if [ -n "$need" ]; then
		apt-get install -y -qq $need >/dev/null || {
			echo "install-deps: apt-get install$need failed" >&2; exit 1; }
	fi
	if [ -n "$rt" ]; then
		apt-get install -y -qq --no-install-recommends $rt >/dev/null || {
			echo "install-deps: apt-get install$rt failed" >&2; exit 1; }
	fi
	# linux-libc-dev:arm64 must match linux-libc-dev's version: apt upgrades both
	if [ -n "$arm" ]; then
		log=$(mktemp)
		apt-get install -y -qq --no-install-recommends $arm >"$log" 2>&1 || {
			tail -n 5 "$log" >&2; rm -f "$log"
			echo "install-deps: apt-get install$arm failed (the arm64 build and tests need them;" \
			     "COREBOX_NO_ARM64=1 skips them)" >&2; exit 1; }
		rm -f "$log"
	fi
fi
exit 0
