#!/bin/sh
# The layering, checked the way Go checks package imports: dependencies
# point one way, tools -> loader -> {elf, btf, bpf} -> lib, and no folder
# (nor loader file) reaches back up through another.
#
# Inputs: every #include "..." in lib/ elf/ btf/ bpf/ loader/ tools/
# (resolved like the compiler: the including file's folder, then -I. ,
# -Ilib, tools/include; a header found nowhere is generated, e.g.
# build/version.h, and checked by nobody) and, for loader/, which file
# calls a non-static function that another file defines.
#
# Rules:
#   lib                 includes lib only
#   elf, btf, bpf       include lib and their own folder only: none of the
#                       three needs another today (loader/ is where ELF,
#                       BTF and bpf(2) meet), so a new edge is a decision to
#                       make here, not an accident
#   loader              includes no tools/
#   tools/FOLDER        an applet folder (proc, sched, cpu, mem, fs, block,
#                       net, trace, cmd and any new one) includes no other
#                       applet folder; a library folder (common, stack,
#                       probe, include) includes no applet folder
#   folders             no circle between folders (e.g. tools/common <->
#                       tools/stack)
#   loader files        no circle in "file A calls a function file B
#                       defines": the data flows bytes -> ELF -> object ->
#                       CO-RE -> maps -> programs -> links, one way
# Output: one "ok - layers: ..." or "not ok - layers: ..." line per rule,
# the offending edges indented below; exit status 1 on any failure.
#
# COREBOX_LAYERS_ROOT=DIR checks another tree (the test of this test).
set -u
cd "${COREBOX_LAYERS_ROOT:-$(dirname "$0")/..}" || exit 1

files=$(find lib elf btf bpf loader tools -name '*.[ch]' -type f 2>/dev/null | sort)

# "FROM TO" per include, TO resolved to a path in the tree (or "?NAME").
includes() {
	for f in $files; do
		sed -n "s|^[ \t]*#[ \t]*include[ \t]*\"\([^\"]*\)\".*|$f \1|p" "$f"
	done | awk -v list="$files" '
	BEGIN { n = split(list, a, /[ \n]+/); for (i = 1; i <= n; i++) have[a[i]] = 1 }
	function norm(p,    parts, out, k, m, i) {  # a/b/../c -> a/c
		m = split(p, parts, "/"); k = 0
		for (i = 1; i <= m; i++) {
			if (parts[i] == "." || parts[i] == "") continue
			if (parts[i] == ".." && k > 0) { k--; continue }
			out[++k] = parts[i]
		}
		p = ""; for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
		return p
	}
	{
		dir = $1; sub(/\/[^\/]*$/, "", dir)
		t = norm(dir "/" $2)
		if (!(t in have)) t = norm($2)
		if (!(t in have)) t = "lib/" $2
		if (!(t in have)) t = "tools/include/" $2
		if (!(t in have)) t = "?" $2
		print $1, t
	}'
}

# The folder a file belongs to: lib, elf, btf, bpf, loader, tools/NAME, or
# "tools" for the files directly in tools/ (main.c, applets.h: the top).
folder_awk='
function folder(p,    a) {
	split(p, a, "/")
	if (a[1] != "tools") return a[1]
	return (p ~ /^tools\/[^\/]*$/) ? "tools" : "tools/" a[2]
}
function libfolder(f) {
	return f == "tools/common" || f == "tools/stack" || f == "tools/probe" || f == "tools/include"
}'

edges=$(includes)
fail=0

# rule NAME AWK-CONDITION: the includes (folder from -> folder to) that
# break it, or ok.
rule() {
	name=$1 cond=$2
	bad=$(printf '%s\n' "$edges" | awk "$folder_awk"'
		$2 !~ /^\?/ { from = folder($1); to = folder($2); if (from != to && ('"$cond"')) print "    " $1 " includes " $2 }')
	if [ -n "$bad" ]; then
		echo "not ok - layers: $name"
		printf '%s\n' "$bad"
		fail=1
	else
		echo "ok - layers: $name"
	fi
}

rule "lib/ includes only lib/" 'from == "lib"'
rule "elf/, btf/, bpf/ include only lib/ (and themselves)" \
	'(from == "elf" || from == "btf" || from == "bpf") && to != "lib"'
rule "loader/ includes no tools/" 'from == "loader" && to ~ /^tools/'
rule "no applet folder includes another applet folder" \
	'from ~ /^tools\// && !libfolder(from) && to ~ /^tools\// && !libfolder(to)'
rule "library folders under tools/ (common, stack, probe, include) include no applet folder" \
	'libfolder(from) && to ~ /^tools\// && to != "tools" && !libfolder(to)'
rule "tools/ top files are included by nobody below them" 'to == "tools"'

# A circle in a "FROM TO" edge list (one per line, on stdin): prints it as
# "A -> B -> ... -> A", or nothing.
circle() {
	awk '
	$1 != $2 { succ[$1] = succ[$1] " " $2; node[$1]; node[$2] }
	function dfs(v,    s, n, i, w, k, path) {
		state[v] = 1; stack[++depth] = v
		n = split(succ[v], s, " ")
		for (i = 1; i <= n; i++) {
			w = s[i]
			if (state[w] == 1) {
				path = w
				for (k = depth; k >= 1 && stack[k] != w; k--) ;
				for (k = k + 1; k <= depth; k++) path = path " -> " stack[k]
				found = path " -> " w
				return 1
			}
			if (!state[w] && dfs(w)) return 1
		}
		state[v] = 2; depth--
		return 0
	}
	END { for (v in node) if (!state[v] && dfs(v)) { print found; exit } }'
}

cyc=$(printf '%s\n' "$edges" | awk "$folder_awk"' $2 !~ /^\?/ { print folder($1), folder($2) }' | sort -u | circle)
if [ -n "$cyc" ]; then
	echo "not ok - layers: no circle between folders"
	echo "    $cyc"
	fail=1
else
	echo "ok - layers: no circle between folders"
fi

# loader/: which file calls which.  A definition is a non-static function
# at the start of a line ("type name(" not ending in ";"); a call is the
# name followed by "(" in another file, comments stripped.
loader_calls() {
	for f in loader/*.c; do
		grep -E '^[a-z_][a-z0-9_ ]*[ *]+[a-z_][a-z0-9_]*\(' "$f" | grep -v -e '^static' -e ';[ \t]*$' |
			sed -E 's/^[^(]*[ *]([a-z_][a-z0-9_]*)\(.*/\1/' | sed "s|^|$f |"
	done > "$tmp/defs"
	for f in loader/*.c; do
		# strip /* */ and // comments and string literals, one word per call
		sed -e 's|//.*||' -e 's|"[^"]*"||g' "$f" | awk '
			{ line = $0
			  while (1) {
				if (inc) { e = index(line, "*/"); if (!e) { line = ""; break } line = substr(line, e + 2); inc = 0 }
				s = index(line, "/*"); if (!s) break
				printf "%s\n", substr(line, 1, s - 1); line = substr(line, s + 2); inc = 1
			  }
			  print line }' |
			grep -oE '[a-z_][a-z0-9_]*[ \t]*\(' | tr -d ' \t(' | sort -u | sed "s|^|$f |"
	done > "$tmp/calls"
	awk 'NR == FNR { def[$2] = $1; next } ($2 in def) && def[$2] != $1 { print $1, def[$2] }' \
		"$tmp/defs" "$tmp/calls" | sort -u
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
calls=$(loader_calls)
ndefs=$(wc -l < "$tmp/defs")
cyc=$(printf '%s\n' "$calls" | circle)
if [ "$ndefs" -lt 20 ] || [ -z "$calls" ]; then
	echo "not ok - layers: loader call graph: only $ndefs definitions found (is the parser broken?)"
	fail=1
elif [ -n "$cyc" ]; then
	echo "not ok - layers: no circle between loader files (A -> B: A calls a function B defines)"
	echo "    $cyc"
	fail=1
else
	echo "ok - layers: no circle between loader files ($ndefs functions, $(printf '%s\n' "$calls" | wc -l) file edges)"
fi
exit $fail
