#!/bin/sh
# make vmtest: boot other kernels under qemu (software emulation) with a
# bare initramfs -- /init = tests/vm/driver.c, /corebox, /mechtest (the
# loader's mechanism test), /mech.bpf.o and the kernel's own loop.ko, all
# built for the kernel's architecture (x86_64, or arm64: ./corebox-arm64
# from `make ARCH=arm64`, booted with qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on),
# and for the file system tools an ext4 image (mkfs.ext4 here) with the
# kernel's ext4.ko and its dependencies -- and print a table kernel x test
# -> pass/fail and the attach mechanisms.
#
#   sh tests/vm/run.sh                      every kernel in tests/vm/kernels.txt
#   sh tests/vm/run.sh --only 6.12          one of them (--only arm64: the arm64 one)
#   sh tests/vm/run.sh --tests A,B          only the checks named A and B (with their
#                                           .fallback runs; no mechanism runs)
#   sh tests/vm/run.sh --kernel IMAGE [--arch arm64] [--modules DIR] [--name NAME] [--strict]
#                                           your own kernel image (bzImage, an ELF
#                                           vmlinux with a PVH note, or an arm64
#                                           Image[.gz]); DIR is searched for
#                                           loop.ko[.xz|.zst|.gz]
#
# Kernels of another architecture than the host's boot in parallel with the
# host's own, and the host's own two at a time (COREBOX_VM_HOST_JOBS,
# default 2; COREBOX_VM_PARALLEL=0: every guest one after the other): the
# CI budget is wall time, an x86_64 guest runs its vCPUs in one host thread
# (at most one core), and once the other architectures' guests are done
# one guest at a time left the second core idle.
# COREBOX_NO_ARM64=1 (as for tests/install-deps.sh) leaves the arm64 and
# 32-bit arm kernels out.  kernels.txt may give a kernel its own checks
# (only=...), the BTF of its -dbg package (btf=dbg, for a kernel built
# without BTF: pahole from dwarves, cached as vmlinux.btf beside the
# kernel) or none at all (nobtf: the kernel's own BTF hidden).
#
# Kernels are fetched with apt-get download + dpkg-deb into
# ${COREBOX_VM_CACHE:-/var/cache/corebox-vm} (outside the tree; only
# Debian's package registry is used).  qemu runs under `timeout`
# (COREBOX_VM_TIMEOUT seconds, default 720: a guest runs its ~156 checks in
# 220-235 s under TCG on an idle 2-core host, 360-390 s in CI beside the
# arm guests, and two x86_64 guests side by side took 28-43% longer each
# on a loaded host): a hung guest is a failure.
# Exit status 0 only when every check on every kernel passed.
set -u
cd "$(dirname "$0")/../.." || exit 1
CACHE=${COREBOX_VM_CACHE:-/var/cache/corebox-vm}
TMO=${COREBOX_VM_TIMEOUT:-720}
# the host architecture's guests booted side by side (see "Kernels of
# another architecture" above)
HOST_JOBS=${COREBOX_VM_HOST_JOBS:-2}
W=build/vm
ONLY= TESTS= KIMG= KMOD= KNAME= KARCH=x86_64 STRICT=0
HOST_ARCH=$(uname -m | sed 's/aarch64/arm64/')
# -cpu max with the cheap implementation-defined pointer-authentication
# algorithm: Debian's arm64 kernel signs return addresses in every function,
# and emulating the architected QARMA cipher costs TCG a lot of time
ARM64_CPU=${COREBOX_VM_ARM64_CPU:-max,pauth-impdef=on}

while [ $# -gt 0 ]; do
	case $1 in
	--only) ONLY=$2; shift 2 ;;
	--kernel) KIMG=$2; shift 2 ;;
	--modules) KMOD=$2; shift 2 ;;
	--name) KNAME=$2; shift 2 ;;
	--arch) KARCH=$(echo "$2" | sed 's/aarch64/arm64/; s/amd64/x86_64/'); shift 2 ;;
	--strict) STRICT=1; shift ;;
	--tests) TESTS=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -u$/{/^set -u$/d;p}' "$0"; exit 0 ;;
	*) echo "vmtest: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

say() { echo "vmtest: $*" >&2; }
die() { say "$*"; exit 1; }

# The architectures of the kernels to boot.
if [ -n "$KIMG" ]; then
	ARCHES=$KARCH
else
	ARCHES=$(awk -v only="$ONLY" -v noarm="${COREBOX_NO_ARM64:-0}" '$1 !~ /^#/ && NF >= 2 && (only == "" || only == $1) {
		a = NF >= 3 ? $3 : "x86_64"; if (!((a == "arm64" || a == "arm") && noarm == 1)) print a }' tests/vm/kernels.txt | sort -u | tr '\n' ' ')
fi
has_arch() { case " $ARCHES " in *" $1 "*) return 0 ;; esac; return 1; }

# ---- host tools (Debian packages, no recommends) ----
APT_UPDATED=0
apt_update() {
	[ $APT_UPDATED = 1 ] && return 0
	APT_UPDATED=1
	apt-get update -qq >/dev/null 2>&1 || say "apt-get update failed"
}
# apt-cache with a binary cache of its own: Debian's container images
# turn apt's off (/etc/apt/apt.conf.d/docker-clean), and then every call
# parses all the (gzipped) package lists again: 3 s of CPU each, and
# fetch asks ~15 times for the six kernels (38 s of a CI run).  apt
# rebuilds it by itself when the lists change.
apt_cache() {
	ac=$CACHE/apt
	case $ac in /*) ;; *) ac=$PWD/$ac ;; esac # (apt: relative to its own dir)
	mkdir -p "$ac" 2>/dev/null
	apt-cache -o Dir::Cache::pkgcache="$ac/pkgcache.bin" -o Dir::Cache::srcpkgcache="$ac/srcpkgcache.bin" "$@"
}
need=
has_arch x86_64 && { command -v qemu-system-x86_64 >/dev/null 2>&1 || need="$need qemu-system-x86"; }
command -v cpio >/dev/null 2>&1 || need="$need cpio"
command -v xz >/dev/null 2>&1 || need="$need xz-utils"
command -v zstd >/dev/null 2>&1 || need="$need zstd"
command -v musl-gcc >/dev/null 2>&1 || need="$need musl-tools"
command -v clang >/dev/null 2>&1 || need="$need clang"
command -v mkfs.ext4 >/dev/null 2>&1 || [ -x /sbin/mkfs.ext4 ] || need="$need e2fsprogs"
if [ -n "$need" ]; then
	[ "$(id -u)" = 0 ] || die "missing:$need (run as root to install them with apt-get)"
	say "installing$need"
	apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null ||
		die "apt-get install$need failed"
fi
# arm64, arm: the cross toolchains and qemu-system-{aarch64,arm} come with the install step
if has_arch arm64 && { ! command -v qemu-system-aarch64 >/dev/null 2>&1 || ! command -v aarch64-linux-musl-gcc >/dev/null 2>&1; }; then
	sh tests/install-deps.sh || die "arm64 guests need the cross toolchain and qemu-system-aarch64 (tests/install-deps.sh)"
fi
if has_arch arm && { ! command -v qemu-system-arm >/dev/null 2>&1 || ! command -v arm-linux-musleabihf-gcc >/dev/null 2>&1; }; then
	sh tests/install-deps.sh || die "arm guests need the armhf cross toolchain and qemu-system-arm (tests/install-deps.sh)"
fi

# ---- guest binaries, per architecture: $W/ARCH/{init,mechtest,mech.bpf.o,corebox} ----
# ./corebox (or ./corebox-arm64) and the guest's test binaries come from
# make (`make vm-guest`: the Makefile's compiler and flags for ARCH).
# mk ARCH ARGS...: make for ARCH, one at a time (build/.make-ARCH.lock):
# make check's cross tests build the same ARCH's objects (build/ARCH),
# and .ci/run runs make vmtest beside make check
mk() {
	ma=$1
	shift
	if command -v flock >/dev/null 2>&1; then
		flock build/.make-$ma.lock make -s --no-print-directory ARCH=$ma "$@"
	else
		make -s --no-print-directory ARCH=$ma "$@"
	fi
}
build_guest() { # ARCH
	a=$1 g=$W/$1
	case $a in
	x86_64|arm64|arm) ;;
	*) say "no guest build for architecture $a"; return 1 ;;
	esac
	bin=corebox
	[ "$a" = "$HOST_ARCH" ] || bin=corebox-$a
	mkdir -p $g || return 1
	mk $a $bin >/dev/null || { say "make ARCH=$a $bin failed"; return 1; }
	mk $a VM_OUT=$g vm-guest >/dev/null || { say "cannot build the $a guest's test binaries (make vm-guest)"; return 1; }
	cp $bin $g/corebox || return 1
	# the architecture's own test programs: $g/root/ is copied into the initramfs
	mkdir -p $g/root || return 1
	case $a in
	arm) build_usdt_thumb $g/root ;;
	arm64) build_go_arm64 $g/root ;;
	esac
	return 0
}
# t_usdt.c's programs (arm): tests/vm/usdt_thumb.c as Thumb-2 code with
# <sys/sdt.h> (systemtap-sdt-dev, for the host: it is architecture-free),
# and a stripped copy; missing, the checks fail saying so
build_usdt_thumb() { # DIR
	[ "$1/cbxvm_usdt_stripped" -nt tests/vm/usdt_thumb.c ] && return 0
	rm -f "$1/cbxvm_usdt" "$1/cbxvm_usdt_stripped"
	sdt=$(ls /usr/include/sys/sdt.h /usr/include/*/sys/sdt.h 2>/dev/null | head -n 1)
	[ -n "$sdt" ] || { say "no <sys/sdt.h> (tests/install-deps.sh installs systemtap-sdt-dev): usdt.* fail"; return 0; }
	mkdir -p $W/sdt/sys && cp "$sdt" "$(dirname "$sdt")/sdt-config.h" $W/sdt/sys/ &&
		arm-linux-musleabihf-gcc -mthumb -O2 -static -I$W/sdt -o "$1/cbxvm_usdt" tests/vm/usdt_thumb.c &&
		arm-linux-gnueabihf-strip -o "$1/cbxvm_usdt_stripped" "$1/cbxvm_usdt" ||
		say "cannot build tests/vm/usdt_thumb.c: usdt.* fail"
}
# t_go.c's programs (arm64): tests/e2e/helpers/cbx_go_spin.go built by
# the host's Go for arm64, stripped (-s -w): linked by Go (static,
# .gopclntab), and as a PIE linked by ld.lld with cgo and musl (the
# function table in .data.rel.ro, its textStart 0 in the file: the addend
# of a relocation), with the musl loader it needs.  Cached under
# $CACHE/go by Go's version, the source and this function (the first
# build compiles Go's standard library for arm64: ~25 s of CPU).  With
# no go (or no ld.lld and musl for the PIE) NAME.skip tells the guest
# why: the check is reported as SKIP, never as a pass; a failed build
# leaves NAME.fail, a FAIL.
build_go_arm64() { # DIR
	go=${COREBOX_VM_GO:-go} # (COREBOX_VM_GO=/no/go: the SKIP path)
	rm -rf "$1"/cbxvm_go* "$1/lib"
	gobin=$(command -v "$go" 2>/dev/null)
	if [ ! -f "$gobin" ] || [ ! -x "$gobin" ]; then
		echo "no go on the build host (tests/install-deps.sh installs golang-go)" > "$1/cbxvm_go_static.skip"
		echo "no go on the build host (tests/install-deps.sh installs golang-go)" > "$1/cbxvm_go_lld.skip"
		return 0
	fi
	key=$( ("$go" version; cat tests/e2e/helpers/cbx_go_spin.go; sed -n '/^build_go_arm64()/,/^}/p' tests/vm/run.sh) |
		sha256sum | cut -c1-16)
	gc=$CACHE/go/arm64-$key
	if [ ! -f "$gc/.done" ]; then
		say "building the arm64 Go programs (cached in $gc)"
		rm -rf "$gc" && mkdir -p "$gc/src" "$gc/bin" || return 1
		cp tests/e2e/helpers/cbx_go_spin.go "$gc/src/main.go"
		gobuild() { # OUT ENV-AND-FLAGS...
			o=$1
			shift
			(cd "$gc/src" && env HOME="$CACHE/go" GOCACHE="$CACHE/go/cache" GOPATH="$CACHE/go/path" GO111MODULE=off \
				GOFLAGS= GOARCH=arm64 "$@" -o "$gc/$o" main.go) > "$gc/$o.log" 2>&1
		}
		gobuild cbxvm_go_static CGO_ENABLED=0 "$go" build -ldflags='-s -w' ||
			echo "go build failed: $(head -c 200 "$gc/cbxvm_go_static.log")" > "$gc/cbxvm_go_static.fail"
		if ! command -v ld.lld >/dev/null 2>&1 || ! command -v aarch64-linux-musl-gcc >/dev/null 2>&1; then
			echo "no ld.lld or aarch64-linux-musl-gcc (tests/install-deps.sh installs them)" > "$gc/cbxvm_go_lld.skip"
		else
			ln -sf "$(command -v ld.lld)" "$gc/bin/ld.lld"
			gobuild cbxvm_go_lld CGO_ENABLED=1 CC=aarch64-linux-musl-gcc "$go" build -buildmode=pie \
				-ldflags="-s -w -linkmode=external '-extldflags=-B$gc/bin -fuse-ld=lld'" ||
				echo "go build (PIE, ld.lld) failed: $(head -c 200 "$gc/cbxvm_go_lld.log")" > "$gc/cbxvm_go_lld.fail"
		fi
		ls "$gc"/*.fail >/dev/null 2>&1 || touch "$gc/.done" # (a failed build is tried again)
	fi
	for f in "$gc"/cbxvm_go_static "$gc"/cbxvm_go_lld "$gc"/*.skip "$gc"/*.fail; do [ -f "$f" ] && cp "$f" "$1/"; done
	# the PIE's program interpreter (musl:arm64)
	[ -f "$1/cbxvm_go_lld" ] && mkdir -p "$1/lib" && cp -L /lib/ld-musl-aarch64.so.1 "$1/lib/"
	return 0
}
mkdir -p $W || exit 1
GUEST_OK=
for a in $ARCHES; do
	build_guest $a && GUEST_OK="$GUEST_OK $a"
done
# the file system tools' ext4 (4 KiB blocks: one buffer per page; no
# metadata checksums: no crc32c needed; inode tables and journal written
# now, so no lazy-init thread writes while cachestat counts)
rm -f $W/cbxvm_ext4.img
truncate -s 48M $W/cbxvm_ext4.img && PATH=$PATH:/sbin:/usr/sbin mkfs.ext4 -q -F -b 4096 -O ^metadata_csum \
	-E lazy_itable_init=0,lazy_journal_init=0 $W/cbxvm_ext4.img || die "mkfs.ext4 failed"

# ---- kernels ----
# decompress a bzImage's payload to an ELF vmlinux (booted via PVH: saves
# the in-guest decompression, seconds under TCG); empty on failure
extract_vmlinux() { # IMAGE OUT
	python3 - "$1" "$2" <<'EOF' 2>/dev/null
import lzma, subprocess, sys
d = open(sys.argv[1], 'rb').read()
for magic, how in ((b'\xfd7zXZ\x00', 'xz'), (b'\x28\xb5\x2f\xfd', 'zstd')):
    o = d.find(magic)
    if o < 0:
        continue
    try:
        if how == 'xz':
            out = lzma.LZMADecompressor().decompress(d[o:])
        else:
            out = subprocess.run(['zstd', '-dc'], input=d[o:], capture_output=True).stdout
    except Exception:
        continue
    if out[:4] == b'\x7fELF':
        open(sys.argv[2], 'wb').write(out)
        sys.exit(0)
sys.exit(1)
EOF
}

# The file system modules of the ext4 checks and md's of the mdflush
# check (a RAID1 of two loop devices), from the deb in $CACHE/dl (those
# built into the kernel are not there), uncompressed into KDIR.
FS_MODS="fs/ext4/ext4 fs/jbd2/jbd2 fs/mbcache lib/crc16 crypto/crc32c_generic drivers/md/md-mod drivers/md/raid1"
extract_fs_modules() { # DEB KDIR
	pats=
	for m in $FS_MODS; do pats="$pats ./lib/modules/*/kernel/$m.ko*"; done
	# tar fails for the patterns that match nothing: built-in modules
	(cd "$CACHE/dl" && dpkg-deb --fsys-tarfile "$1" | tar -x --wildcards $pats 2>/dev/null)
	for ko in $(find "$CACHE/dl/lib" -name '*.ko*' ! -name 'loop.ko*' 2>/dev/null); do
		b=$(basename "$ko")
		b=${b%%.ko*}.ko
		case $ko in
		*.xz) xz -dc "$ko" > "$2/$b" ;;
		*.zst) zstd -qdc "$ko" > "$2/$b" ;;
		*.gz) gzip -dc "$ko" > "$2/$b" ;;
		*) cp "$ko" "$2/$b" ;;
		esac
	done
	touch "$2/.mdmods"
}

# fetch NAME PKG -> sets KDIR (cache dir holding vmlinuz, vmlinux?, loop.ko,
# the file system modules)
fetch() {
	name=$1 pkg=$2 KDIR=
	mkdir -p "$CACHE" || return 1
	if ! apt_cache show "$pkg" >/dev/null 2>&1; then apt_update; fi
	res=$(apt_cache depends "$pkg" 2>/dev/null | awk '/Depends: linux-image-/ { print $2; exit }')
	[ -n "$res" ] || { apt_cache show "$pkg" >/dev/null 2>&1 && res=$pkg; }
	if [ -z "$res" ] && [ -f "$CACHE/$name.current" ]; then
		res=$(cat "$CACHE/$name.current")
		say "$name: cannot resolve $pkg (offline?); using the cached $res"
	fi
	[ -n "$res" ] || { say "$name: cannot resolve package $pkg"; return 1; }
	KDIR=$CACHE/$(echo "$res" | tr : _) # linux-image-X-arm64:arm64
	# the cache's key: the package name (its kernel ABI) and, checked here,
	# the package's version (a rebuild under the same ABI name is fetched
	# again, its -dbg BTF too); an entry from before .version is trusted
	# once and gets the version recorded
	# (asked once per package: two kernels of kernels.txt may share one)
	ver=$(awk -v r="$res" '$1 == r { print $2; exit }' $W/versions 2>/dev/null)
	if [ -z "$ver" ]; then
		ver=$(apt_cache show --no-all-versions "$res" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
		[ -n "$ver" ] && echo "$res $ver" >> $W/versions
	fi
	if [ -f "$KDIR/.done" ] && [ -n "$ver" ] && [ -f "$KDIR/.version" ] && [ "$(cat "$KDIR/.version")" != "$ver" ]; then
		say "$name: cached $res is version $(cat "$KDIR/.version"), the archive has $ver"
		rm -f "$KDIR/.done"
	fi
	if [ ! -f "$KDIR/.done" ]; then
		say "$name: fetching $res"
		rm -rf "$KDIR" "$CACHE/dl" && mkdir -p "$KDIR" "$CACHE/dl" || return 1
		(cd "$CACHE/dl" && apt-get download -q "$res" >/dev/null 2>&1) || { say "apt-get download $res failed"; return 1; }
		deb=$(ls "$CACHE"/dl/*.deb 2>/dev/null | head -n 1)
		[ -n "$deb" ] || return 1
		(cd "$CACHE/dl" && dpkg-deb --fsys-tarfile "$deb" | tar -x --wildcards './boot/vmlinuz-*' './boot/config-*' \
			'./lib/modules/*/kernel/drivers/block/loop.ko*') || { say "dpkg-deb -x $deb failed"; return 1; }
		mv "$CACHE"/dl/boot/vmlinuz-* "$KDIR/vmlinuz" && mv "$CACHE"/dl/boot/config-* "$KDIR/config" || return 1
		ko=$(find "$CACHE/dl/lib" -name 'loop.ko*' | head -n 1)
		case $ko in
		*.xz) xz -dc "$ko" > "$KDIR/loop.ko" ;;
		*.zst) zstd -qdc "$ko" > "$KDIR/loop.ko" ;;
		*.gz) gzip -dc "$ko" > "$KDIR/loop.ko" ;;
		?*) cp "$ko" "$KDIR/loop.ko" ;;
		esac
		grep -q '^CONFIG_PVH=y' "$KDIR/config" && extract_vmlinux "$KDIR/vmlinuz" "$KDIR/vmlinux"
		extract_fs_modules "$deb" "$KDIR"
		rm -rf "$CACHE/dl"
		touch "$KDIR/.done"
		[ -n "$ver" ] && echo "$ver" > "$KDIR/.version"
	elif [ ! -f "$KDIR/.mdmods" ]; then # a cache from before the file system (or md) checks
		say "$name: fetching $res again for its file system modules"
		rm -rf "$CACHE/dl" && mkdir -p "$CACHE/dl" || return 1
		(cd "$CACHE/dl" && apt-get download -q "$res" >/dev/null 2>&1) || { say "apt-get download $res failed"; return 1; }
		deb=$(ls "$CACHE"/dl/*.deb 2>/dev/null | head -n 1)
		[ -n "$deb" ] && extract_fs_modules "$deb" "$KDIR"
		rm -rf "$CACHE/dl"
	fi
	[ -f "$KDIR/.version" ] || [ -z "$ver" ] || echo "$ver" > "$KDIR/.version"
	echo "$res" > "$CACHE/$name.current"
}

# btf_from_dbg NAME -> $KDIR/vmlinux.btf (after fetch): for a kernel built
# without BTF, its DWARF from the -dbg package (~600 MB, downloaded once
# per kernel version, then deleted) turned into BTF by pahole (dwarves);
# the guest gets the few KB `corebox btf min` keeps of it, as a user would
# ship them (/btf, COREBOX_BTF)
btf_from_dbg() {
	[ -s "$KDIR/vmlinux.btf" ] && return 0
	res=$(cat "$CACHE/$1.current") || return 1
	dbg=$(echo "$res" | sed 's/:/-dbg:/; /-dbg:/!s/$/-dbg/')
	if ! command -v pahole >/dev/null 2>&1; then
		[ "$(id -u)" = 0 ] || { say "$1: pahole missing (apt-get install dwarves)"; return 1; }
		apt_update
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dwarves >/dev/null ||
			{ say "apt-get install dwarves failed"; return 1; }
	fi
	say "$1: fetching $dbg for its BTF"
	rm -rf "$CACHE/dl" && mkdir -p "$CACHE/dl" || return 1
	(cd "$CACHE/dl" && apt-get download -q "$dbg" >/dev/null 2>&1) || { say "apt-get download $dbg failed"; return 1; }
	(cd "$CACHE/dl" && dpkg-deb --fsys-tarfile ./*.deb | tar -x --wildcards './usr/lib/debug/boot/vmlinux-*') &&
		pahole --btf_encode_detached="$KDIR/vmlinux.btf.tmp" "$CACHE"/dl/usr/lib/debug/boot/vmlinux-* >/dev/null 2>&1 &&
		mv "$KDIR/vmlinux.btf.tmp" "$KDIR/vmlinux.btf"
	rc=$?
	rm -rf "$CACHE/dl"
	[ $rc = 0 ] || say "$1: no BTF from $dbg (pahole failed)"
	return $rc
}

# boot NAME ARCH IMAGE LOOPKO EXPECT [KTESTS [BTF]] -> $W/NAME.log, sets RC and SECS
boot() {
	name=$1 arch=$2 img=$3 ko=$4 exp=$5 ktests=${6:-} kbtf=${7:-}
	root=$W/root-$name
	rm -rf "$root" && mkdir -p "$root" || return 1
	cp $W/$arch/init $W/$arch/corebox $W/$arch/mechtest $W/$arch/mech.bpf.o $W/cbxvm_ext4.img "$root/" || return 1
	# the architecture's own test programs (build_guest), when built
	[ -d $W/$arch/root ] && cp -R $W/$arch/root/. "$root/"
	if [ "$kbtf" = nobtf ]; then # the kernel's own BTF hidden (kernels.txt nobtf)
		:
	elif [ -n "$kbtf" ]; then # the tools' part of it, as a user ships it
		./corebox btf min "$kbtf" -o "$root/btf" build/$arch/bpf/*.bpf.o >$W/$name.btfmin 2>&1 ||
			{ say "$name: btf min failed: $(tail -n 1 $W/$name.btfmin)"; return 1; }
	fi
	[ -n "$ko" ] && cp "$ko" "$root/loop.ko"
	# the oracle of the ksnoop.oracle check: Debian's libbpf-tools ksnoop
	# with the libraries it links (x86_64 guests, when it is installed)
	if [ "$arch" = x86_64 ] && [ -x /usr/sbin/ksnoop ] && [ "$(uname -m)" = x86_64 ]; then
		cp /usr/sbin/ksnoop "$root/ksnoop-0.26"
		for lib in $(ldd /usr/sbin/ksnoop | awk '/\// { print $(NF - 1) }'); do
			mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib"
		done
	fi
	for m in $FS_MODS; do # beside loop.ko (fetch, --modules)
		m=$(basename $m).ko
		[ -n "$ko" ] && [ -f "$(dirname "$ko")/$m" ] && cp "$(dirname "$ko")/$m" "$root/"
	done
	(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) > $W/initrd-$name.gz || return 1
	append="quiet panic=-1 oops=panic"
	# --tests, else the kernel's own list (kernels.txt only=...)
	if [ -n "$TESTS" ]; then append="$append vmtest.only=$TESTS"
	elif [ -n "$ktests" ]; then append="$append vmtest.only=$ktests"
	fi
	[ "$exp" = auto ] && append="$append vmtest.expect=auto"
	# fentry/fexit attach through ftrace direct calls (arm64: 6.4+); a
	# kernel built without them offers kprobes as the best kfunc mechanism
	cfg=$(dirname "$img")/config
	[ -f "$cfg" ] && ! grep -q '^CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS=y' "$cfg" && append="$append vmtest.nofentry"
	# no BTF: no fentry either (the driver hides /sys/kernel/btf from corebox)
	[ "$kbtf" = nobtf ] && append="$append vmtest.nobtf vmtest.nofentry"
	t0=$(date +%s.%N)
	case $arch in
	arm64) # no exit device: PSCI power-off ends qemu (status 0), the log has the verdict
		timeout -k 5 "$TMO" qemu-system-aarch64 -M virt -cpu $ARM64_CPU -m 1024 -smp 2 -kernel "$img" \
			-initrd $W/initrd-$name.gz -append "console=ttyAMA0 $append" -display none \
			-serial file:$W/$name.raw -monitor none -nic none -no-reboot </dev/null >$W/$name.qemu 2>&1 ;;
	arm) # 32-bit: Debian's armmp zImage, -M virt's generated device tree;
		# highmem=off keeps the PCI window below 4 GiB (no LPAE in armmp)
		timeout -k 5 "$TMO" qemu-system-arm -M virt,highmem=off -cpu cortex-a15 -m 1024 -smp 2 -kernel "$img" \
			-initrd $W/initrd-$name.gz -append "console=ttyAMA0 $append" -display none \
			-serial file:$W/$name.raw -monitor none -nic none -no-reboot </dev/null >$W/$name.qemu 2>&1 ;;
	*)
		# one host thread for both vCPUs: with a thread each (MTTCG) a vCPU
		# could run code the other was patching (static keys, ftrace) and
		# oops on a stale int3 -- seen in 6.12's __schedule under CI load
		timeout -k 5 "$TMO" qemu-system-x86_64 -accel tcg,thread=single -m 1024 -smp 2 -kernel "$img" -initrd $W/initrd-$name.gz \
			-append "console=ttyS0 $append" -display none -serial file:$W/$name.raw -monitor none -nic none \
			-no-reboot -device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null >$W/$name.qemu 2>&1 ;;
	esac
	RC=$?
	SECS=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.1f", $1 - $2 }')
	tr -d '\r' < $W/$name.raw | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g' > $W/$name.log
}

# ---- run ----
# run_one NAME ARCH IMAGE LOOPKO EXPECT [KTESTS] -> $W/res-NAME (lines of the table's input)
run_one() {
	out=$W/res-$1
	: > $out
	case " $GUEST_OK " in
	*" $2 "*) ;;
	*) echo "$1 VMTEST build FAIL cannot build the $2 guest binaries" >> $out; return ;;
	esac
	say "$1: booting $(basename "$3") ($2, timeout ${TMO}s)"
	boot "$@" || { echo "$1 VMTEST boot FAIL cannot build the initramfs" >> $out; return; }
	grep -a '^VMTEST' $W/$1.log | sed "s/^/$1 /" >> $out
	gfails=$(sed -n 's/^VMTEST-DONE fails=\([0-9]*\).*/\1/p' $W/$1.log | tail -n 1)
	case $RC in
	1) st="qemu exit 1 (guest: pass)" ;;
	3) st="qemu exit 3 (guest: failures)" ;;
	0) st="qemu exit 0 (guest powered off: ${gfails:-?} failures)" ;;
	124|137) st="TIMEOUT after ${TMO}s" ;;
	*) st="qemu exit $RC" ;;
	esac
	if ! grep -aq '^VMTEST-DONE' $W/$1.log; then
		echo "$1 VMTEST guest FAIL did not finish ($st); log tail: $(tail -n 15 $W/$1.log | tr '\n' '|' | cut -c1-900)" >> $out
	elif [ "$RC" != 1 ] && [ "$RC" != 3 ] && { [ "$2" = x86_64 ] || [ "$RC" != 0 ]; }; then
		echo "$1 VMTEST guest FAIL $st" >> $out
	fi
	say "$1: $st in ${SECS}s; $(grep -a '^VMTEST-KERNEL' $W/$1.log | cut -d' ' -f2-)"
	echo "$1 VMTEST-TIME ${SECS}s" >> $out
}

T0=$(date +%s)
rm -f $W/res-* $W/results
names= bg=
if [ -n "$KIMG" ]; then
	[ -f "$KIMG" ] || die "no kernel image $KIMG"
	ko=
	if [ -n "$KMOD" ]; then
		src=$(find "$KMOD" -name 'loop.ko*' 2>/dev/null | head -n 1)
		case $src in
		*.xz) xz -dc "$src" > $W/user-loop.ko && ko=$W/user-loop.ko ;;
		*.zst) zstd -qdc "$src" > $W/user-loop.ko && ko=$W/user-loop.ko ;;
		*.gz) gzip -dc "$src" > $W/user-loop.ko && ko=$W/user-loop.ko ;;
		?*) ko=$src ;;
		*) say "no loop.ko under $KMOD (fine if loop is built in)" ;;
		esac
	fi
	exp=auto
	[ $STRICT = 1 ] && exp=strict
	names=${KNAME:-$(basename "$KIMG")}
	run_one "$names" "$KARCH" "$KIMG" "$ko" $exp
else
	# fetch every kernel first (apt), then boot: another architecture's
	# guests in the background, the host's one after the other
	: > $W/plan
	rm -f $W/versions
	while read -r name pkg arch rest; do
		case $name in ''|'#'*) continue ;; esac
		[ -n "$ONLY" ] && [ "$ONLY" != "$name" ] && continue
		arch=${arch:-x86_64}
		ktests=$(echo "$rest" | sed -n 's/.*only=\([^ ]*\).*/\1/p')
		kbtf=
		if { [ "$arch" = arm64 ] || [ "$arch" = arm ]; } && [ "${COREBOX_NO_ARM64:-0}" = 1 ]; then
			say "$name: skipped (COREBOX_NO_ARM64=1)"
			continue
		fi
		names="$names $name"
		if ! fetch "$name" "$pkg"; then
			echo "$name VMTEST fetch FAIL cannot get $pkg" > $W/res-$name
			continue
		fi
		img=$KDIR/vmlinuz
		[ -s "$KDIR/vmlinux" ] && img=$KDIR/vmlinux
		ko=
		[ -s "$KDIR/loop.ko" ] && ko=$KDIR/loop.ko
		case " $rest " in *" nobtf "*) kbtf=nobtf ;; esac
		case " $rest " in *" btf=dbg "*)
			btf_from_dbg "$name" && kbtf=$KDIR/vmlinux.btf ||
				{ echo "$name VMTEST btf FAIL no BTF from the kernel's -dbg package" > $W/res-$name; continue; } ;;
		esac
		echo "$name $arch $img ${ko:--} ${ktests:--} ${kbtf:--}" >> $W/plan
	done < tests/vm/kernels.txt
	while read -r name arch img ko kt kb; do
		[ "$arch" = "$HOST_ARCH" ] && continue
		[ "$ko" = - ] && ko=
		[ "$kt" = - ] && kt=
		[ "$kb" = - ] && kb=
		if [ "${COREBOX_VM_PARALLEL:-1}" = 0 ]; then
			run_one "$name" "$arch" "$img" "$ko" strict "$kt" "$kb"
		else
			run_one "$name" "$arch" "$img" "$ko" strict "$kt" "$kb" &
			bg="$bg $!"
		fi
	done < $W/plan
	# the host's own guests in HOST_JOBS lanes: each lane boots, in
	# kernels.txt's order, the next guest no other lane took yet (mkdir
	# claims it), so the lane done first takes the next one
	host_lane() {
		while read -r name arch img ko kt kb; do
			[ "$arch" = "$HOST_ARCH" ] || continue
			mkdir $W/.claim-$name 2>/dev/null || continue
			[ "$ko" = - ] && ko=
			[ "$kt" = - ] && kt=
			[ "$kb" = - ] && kb=
			run_one "$name" "$arch" "$img" "$ko" strict "$kt" "$kb"
		done < $W/plan
	}
	rm -rf $W/.claim-*
	lanes=1
	[ "${COREBOX_VM_PARALLEL:-1}" = 0 ] || lanes=$HOST_JOBS
	while [ "$lanes" -gt 1 ]; do
		host_lane &
		bg="$bg $!"
		lanes=$((lanes - 1))
	done
	host_lane
	for p in $bg; do wait $p; done
	rm -rf $W/.claim-*
fi
: > $W/results
for n in $names; do
	cat $W/res-$n >> $W/results 2>/dev/null
done

# ---- table: test x kernel -> PASS/FAIL + mechanisms ----
awk -v names="$names" '
	BEGIN { nk = split(names, K, " ") }
	$2 == "VMTEST" {
		k = $1; t = $3; st = $4
		if (!(t in seen)) { seen[t] = 1; order[++nt] = t }
		res[t, k] = st
		# SKIP (a guest program the host could not build): neither passed nor failed, listed
		if (st == "SKIP") { ns++; skips[ns] = k " " t ": " substr($0, index($0, $5)) }
		else if (st != "PASS") { nf++; fails[nf] = k " " t ": " substr($0, index($0, $4)) }
		for (i = 5; i <= NF; i++) if ($i ~ /^mech=/) mech[t, k] = substr($i, 6)
	}
	$2 == "VMTEST-MECH" {
		k = $1; t = $3; m = $5
		if (m == "none") next
		if (index("," mech[t, k] ",", "," m ",") == 0) mech[t, k] = mech[t, k] (mech[t, k] == "" ? "" : ",") m
	}
	$2 == "VMTEST-KERNEL" { rel[$1] = $3 }
	$2 == "VMTEST-TIME" { tm[$1] = $3 }
	END {
		w = 28
		for (j = 1; j <= nk; j++) cw[j] = 34
		printf "%-*s", w, "test"
		for (j = 1; j <= nk; j++) printf " | %-*s", cw[j], K[j] " " (K[j] in rel ? rel[K[j]] : "")
		printf "\n"
		printf "%-*s", w, ""
		for (j = 1; j <= nk; j++) printf " | %-*s", cw[j], (K[j] in tm ? "boot+tests " tm[K[j]] : "")
		printf "\n"
		for (i = 1; i <= nt; i++) {
			t = order[i]
			printf "%-*s", w, t
			for (j = 1; j <= nk; j++) {
				c = ((t, K[j]) in res) ? res[t, K[j]] : "-"
				if (((t, K[j]) in mech) && mech[t, K[j]] != "") c = c " " mech[t, K[j]]
				printf " | %-*s", cw[j], c
			}
			printf "\n"
		}
		for (i = 1; i <= ns; i++) print "SKIP " skips[i]
		for (i = 1; i <= nf; i++) print "FAIL " fails[i]
		printf "%d checks, %d failed%s\n", 0 + cnt(), nf, ns ? ", " ns " skipped" : ""
		exit nf > 0
	}
	function cnt(   n, x) { n = 0; for (x in res) n++; return n }
' $W/results
rc=$?
say "total $(($(date +%s) - T0))s; logs in $W/*.log"
exit $rc
