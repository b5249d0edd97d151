#!/bin/sh
# User symbols end to end (issue 21): profile names the functions of a
# program whatever the language and wherever its symbols are.  Each case
# builds its own program, runs it spinning in known functions, and
# `profile -f -p PID` must show those names in the folded chain:
#  - C++ (g++): a namespace, a class template, a const method, an operator:
#    "cbxns::Spinner<int>::run(double) const;cbxns::Vec::operator+(cbxns::Vec const&) const";
#    --no-demangle shows the mangled names instead;
#  - Rust (rustc), legacy and v0 mangling: module paths, a generic impl,
#    the hash left out.
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

[ "$fails" = 0 ]
