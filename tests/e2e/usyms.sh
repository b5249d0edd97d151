#!/bin/sh
# User symbols end to end (issue 21): profile names the functions of a
# program whatever the language and wherever its symbols are.  Each case
# builds its own program, runs it spinning in known functions, and
# `profile -f -p PID` must show those names in the folded chain:
#  - C++ (g++): a namespace, a class template, a const method, an operator:
#    "cbxns::Spinner<int>::run(double) const;cbxns::Vec::operator+(cbxns::Vec const&) const";
#    --no-demangle shows the mangled names instead;
#  - Rust (rustc), legacy and v0 mangling: module paths, a generic impl,
#    the hash left out;
#  - a stripped C program whose symbols live only in a separate debug
#    file: found through .gnu_debuglink (next to it, CRC-checked: a debug
#    file whose CRC does not match is refused), and through its build-id
#    under /usr/lib/debug/.build-id/ in a mount namespace of its own (only
#    the process's root has the file), and through MiniDebugInfo (an
#    xz-compressed .symtab in .gnu_debugdata, made with nm, objcopy and xz
#    as Fedora's find-debuginfo does); the same program stripped with no
#    debug file shows no such names (the ground truth that they came from
#    the debug file);
#  - a stripped Go program (go build -ldflags=-s -w): names from .gopclntab
#    ("main.main" ... "main.(*spinner).innerCbxgo"; the leaf has no frame
#    of its own, so a frame-pointer walk skips its caller); the same as a
#    PIE, linked by Go (.data.rel.ro.gopclntab) and by the system linker
#    with cgo (the table inside .data.rel.ro, C functions in .dynsym), and
#    by ld.lld (the table's textStart 0 in the file: its relocation's addend).
# A language whose compiler is missing is reported as skipped.
# Run as root from the repository root: sh tests/e2e/usyms.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-usyms.XXXXXX)
T=usyms
fails=0
TPID= SP=
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $SP; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

need_corebox

# prof NAME BIN [PROFILE-FLAGS...]: run BIN spinning 4 s, profile it 2 s
# folded into $W/NAME.out; 0 when profile exited 0
prof() {
	name=$1 bin=$2
	shift 2
	: > "$W/$name.pid"
	"$bin" 4 > "$W/$name.pid" &
	SP=$!
	if ! wait_for "$W/$name.pid" '[0-9]' 50; then
		notok "$name: the program did not start"
		return 1
	fi
	"$CB" profile --stack-storage-size 16384 -F 99 -f "$@" -p "$(head -1 "$W/$name.pid")" 2 \
		> "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	reap "$TPID" 150
	TPID=
	kill "$SP" 2>/dev/null
	wait "$SP" 2>/dev/null
	SP=
	[ "$rc" = 0 ] || { notok "$name: profile status $rc: $(head -c 300 "$W/$name.err")"; return 1; }
}

# has NAME WHAT FIXED-STRING: the folded output holds the string
has() {
	if grep -qF -- "$3" "$W/$1.out"; then ok "$1: $2"
	else notok "$1: $2: no '$3' in: $(head -3 "$W/$1.out" | cut -c1-400 | tr '\n' '|')"; fi
}

# ---- C++ ----------------------------------------------------------------------
if command -v g++ >/dev/null 2>&1; then
	g++ -O0 -fno-omit-frame-pointer -o "$W/cbx_cxx_spin" tests/e2e/helpers/cbx_cxx_spin.cc ||
		notok "cannot build tests/e2e/helpers/cbx_cxx_spin.cc"
	if prof cxx "$W/cbx_cxx_spin"; then
		has cxx "template method and operator demangled in the chain" \
			";main;cbxns::Spinner<int>::run(double) const;cbxns::Vec::operator+(cbxns::Vec const&) const "
	fi
	if prof cxx_raw "$W/cbx_cxx_spin" --no-demangle; then
		has cxx_raw "--no-demangle keeps the mangled names" ";main;_ZNK5cbxns7SpinnerIiE3runEd;_ZNK5cbxns3VecplERKS0_ "
	fi
else
	ok "C++ # SKIP no g++ (tests/install-deps.sh installs it)"
fi

# ---- separate debug files ----------------------------------------------------------
# nodbg NAME: the folded output names none of the helper's functions
nodbg() {
	if grep -q 'outer_unique_cbxprof\|inner_unique_cbxprof' "$W/$1.out"; then
		notok "$1: $2: names shown: $(grep -m1 outer_unique "$W/$1.out" | cut -c1-300)"
	else
		ok "$1: $2"
	fi
}
CHAIN=";main;outer_unique_cbxprof;inner_unique_cbxprof "
if command -v objcopy >/dev/null 2>&1 && command -v strip >/dev/null 2>&1; then
	build_helper cbx_prof_spin -O0 -g -fno-omit-frame-pointer -Wl,--build-id
	S=$W/cbx_prof_spin
	objcopy --only-keep-debug "$S" "$W/spin.debug"
	# stripped, no debug file anywhere
	cp "$S" "$W/spin_bare" && strip --strip-all "$W/spin_bare"
	prof bare "$W/spin_bare" && nodbg bare "stripped, no debug file: no names"
	# .gnu_debuglink next to the binary
	cp "$S" "$W/spin_dl" && strip --strip-all "$W/spin_dl" &&
		objcopy --add-gnu-debuglink="$W/spin.debug" "$W/spin_dl"
	prof debuglink "$W/spin_dl" && has debuglink ".gnu_debuglink: names from spin.debug" "$CHAIN"
	# the same link, the debug file changed after: its CRC no longer matches
	cp "$W/spin.debug" "$W/spin_crc.debug"
	cp "$S" "$W/spin_crc" && strip --strip-all "$W/spin_crc" &&
		objcopy --add-gnu-debuglink="$W/spin_crc.debug" "$W/spin_crc"
	printf 'x' >> "$W/spin_crc.debug"
	prof badcrc "$W/spin_crc" && nodbg badcrc ".gnu_debuglink with a wrong CRC: refused"
	# build-id, the debug file only in the process's own mount namespace
	id=$(readelf -n "$S" 2>/dev/null | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
	if [ -z "$id" ]; then
		notok "build-id: none in the helper (readelf -n)"
	elif [ ! -d /usr/lib/debug ]; then
		ok "build-id in a mount namespace # SKIP no /usr/lib/debug to mount over"
	else
		cp "$S" "$W/spin_bid" && strip --strip-all "$W/spin_bid"
		cat > "$W/ns_run" <<NS
#!/bin/sh
exec unshare -m sh -c 'mount -t tmpfs cbx-debug /usr/lib/debug &&
	mkdir -p /usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2) &&
	cp "$W/spin.debug" /usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug &&
	exec "$W/spin_bid" "\$1"' sh "\$1"
NS
		chmod +x "$W/ns_run"
		if [ -e "/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug" ]; then
			notok "build-id: the host already has a debug file for $id"
		else
			prof buildid "$W/ns_run" && has buildid "build-id: names from /usr/lib/debug/.build-id in the process's root" "$CHAIN"
		fi
	fi
	# MiniDebugInfo, as Fedora's find-debuginfo.sh add_minidebug makes it
	if command -v xz >/dev/null 2>&1; then
		cp "$S" "$W/spin_mini" && strip --strip-all "$W/spin_mini"
		nm -D "$W/spin_mini" --format=posix --defined-only | awk '{ print $1 }' | sort > "$W/dynsyms"
		nm "$W/spin.debug" --format=posix --defined-only |
			awk '{ if ($2 == "T" || $2 == "t" || $2 == "D") print $1 }' | sort > "$W/funcsyms"
		comm -13 "$W/dynsyms" "$W/funcsyms" > "$W/keep_symbols"
		objcopy -S --remove-section .gdb_index --remove-section .comment \
			--keep-symbols="$W/keep_symbols" "$W/spin.debug" "$W/mini_debuginfo" &&
			xz -f "$W/mini_debuginfo" &&
			objcopy --add-section .gnu_debugdata="$W/mini_debuginfo.xz" "$W/spin_mini"
		prof minidebug "$W/spin_mini" && has minidebug "MiniDebugInfo: names from .gnu_debugdata (xz)" "$CHAIN"
	else
		ok "MiniDebugInfo # SKIP no xz (xz-utils)"
	fi
else
	ok "separate debug files # SKIP no objcopy/strip (binutils)"
fi

# ---- Rust -----------------------------------------------------------------------
if command -v rustc >/dev/null 2>&1; then
	for m in legacy v0; do
		# legacy is the default (naming it needs -Z unstable-options)
		mflag=
		[ $m = v0 ] && mflag="-C symbol-mangling-version=v0"
		# shellcheck disable=SC2086
		if ! rustc -C opt-level=1 -C force-frame-pointers=yes $mflag \
			-o "$W/cbx_rust_$m" tests/e2e/helpers/cbx_rust_spin.rs 2> "$W/rustc.err"; then
			notok "rustc ($m) cannot build tests/e2e/helpers/cbx_rust_spin.rs: $(head -c 200 "$W/rustc.err")"
			continue
		fi
		prof "rust_$m" "$W/cbx_rust_$m" || continue
		if [ $m = legacy ]; then
			inner="cbx_rust_spin::shapes::Spinner<T>::inner_cbxrust"
		else
			inner="<cbx_rust_spin::shapes::Spinner<u32>>::inner_cbxrust"
		fi
		has "rust_$m" "$m mangling demangled, hash left out" "cbx_rust_spin::shapes::outer_cbxrust;$inner "
	done
else
	ok "Rust # SKIP no rustc (tests/install-deps.sh installs it)"
fi

# ---- Go ---------------------------------------------------------------------------
if command -v go >/dev/null 2>&1; then
	mkdir -p "$W/go"
	cp tests/e2e/helpers/cbx_go_spin.go "$W/go/main.go"
	if (cd "$W/go" && HOME="$W/go" GOCACHE="$W/go/cache" GOPATH="$W/go/path" GO111MODULE=off GOFLAGS='' \
		go build -ldflags="-s -w" -o "$W/cbx_go_spin" main.go) > "$W/go.err" 2>&1; then
		if readelf -S "$W/cbx_go_spin" | grep -q '\.symtab'; then
			notok "go: the stripped helper still has a .symtab"
		elif prof go "$W/cbx_go_spin"; then
			if grep -Eq ';main\.main;(.*;)?main\.\(\*spinner\)\.innerCbxgo [0-9]+$' "$W/go.out"; then
				ok "go: stripped Go binary named from .gopclntab"
			else
				notok "go: no main.main;...;main.(*spinner).innerCbxgo chain: $(head -3 "$W/go.out" | cut -c1-300 | tr '\n' '|')"
			fi
		fi
	else
		notok "go build of tests/e2e/helpers/cbx_go_spin.go failed: $(head -c 300 "$W/go.err")"
	fi
	# PIE: Go's linker names the table .data.rel.ro.gopclntab; with cgo
	# and the system linker (external) it is merged into .data.rel.ro
	# and .dynsym holds cgo's C functions
	# ld.lld leaves the relocated textStart of the table 0 in the file
	# (the value is only the addend of its R_*_RELATIVE in .rela.dyn), and
	# Go's code starts after the C start-up code in .text: 0x100 past it
	for mode in pie:internal pie_ext:external pie_lld:external:lld; do
		name=go_${mode%%:*}
		link=${mode#*:}
		ld=
		case $link in *:*) ld=-extldflags=-fuse-ld=${link#*:} link=${link%%:*} ;; esac
		if [ -n "$ld" ] && ! command -v ld.lld >/dev/null 2>&1; then
			ok "$name # SKIP no ld.lld (tests/install-deps.sh installs lld)"
			continue
		fi
		if (cd "$W/go" && HOME="$W/go" GOCACHE="$W/go/cache" GOPATH="$W/go/path" GO111MODULE=off GOFLAGS='' \
			CGO_ENABLED=1 go build -buildmode=pie -ldflags="-s -w -linkmode=$link $ld" -o "$W/cbx_$name" main.go) \
			> "$W/$name.err" 2>&1; then
			if ! readelf -h "$W/cbx_$name" | grep -q 'DYN'; then
				notok "$name: not a PIE"
			elif prof "$name" "$W/cbx_$name"; then
				if grep -Eq ';main\.main;(.*;)?main\.\(\*spinner\)\.innerCbxgo [0-9]+$' "$W/$name.out"; then
					ok "$name: stripped Go PIE ($link link${ld:+ by ld.lld}) named from its function table"
				else
					notok "$name: no main.main;...;main.(*spinner).innerCbxgo chain: $(head -3 "$W/$name.out" | cut -c1-300 | tr '\n' '|')"
				fi
			fi
		else
			notok "go build -buildmode=pie -linkmode=$link $ld failed: $(head -c 300 "$W/$name.err")"
		fi
	done
else
	ok "Go # SKIP no go (tests/install-deps.sh installs golang-go)"
fi

[ "$fails" = 0 ]
