#!/usr/bin/env python3
"""bpfslim.py IN.bpf.o OUT.bpf.o [--keep-lines]: a tool's BPF object made
smaller before it is embedded (build time only; the Makefile runs it).

What goes, and why nothing needs it:
  - .BTF.ext line_info and the strings only it used (the C source lines
    and file names: about 30% of an object, 74 KB of the 242 KB the
    gzip'd objects took).  The kernel takes line_info only to print source
    lines in the verifier log; the log still names the instruction and the
    error without them.  `make BPF_LINE_INFO=1` keeps them for debugging.
  - every other .BTF string nothing refers to.
  - local NOTYPE symbols no relocation refers to: clang's branch labels
    (LBB0_2...), one per basic block; the loader reads FUNC, OBJECT and
    SECTION symbols only.
  - the BTF types and struct members nothing in the object uses
    (trim_types: kernel structs reached only through pointers, members of
    CO-RE roots no access string walks).  They were 60-75% of most
    objects; each tool's start unpacked, parsed and loaded them into the
    kernel (execsnoop exec -> header 2.5 -> 1.7 ms).
Everything else (the types used, func_info, CO-RE records, code, maps, the
other symbols) is copied as it is; offsets, type ids and member indices
that moved are rewritten.

The input is what clang -target bpf writes: ELF64 little-endian, ET_REL,
EM_BPF, one .strtab for section and symbol names. Anything else is refused
rather than guessed at."""
import struct
import sys

SHDR = struct.Struct('<IIQQQQIIQQ')  # name type flags addr offset size link info addralign entsize
SYM = struct.Struct('<IBBHQQ')       # name info other shndx value size
SHT_SYMTAB, SHT_REL, SHT_NOBITS, SHT_LLVM_ADDRSIG = 2, 9, 8, 0x6fff4c03
STB_LOCAL, STT_NOTYPE = 0, 0


def die(msg):
    sys.exit('bpfslim: ' + msg)


def cstr(buf, off):
    end = buf.index(b'\0', off)
    return bytes(buf[off:end])


# BTF kinds
PTR, ARRAY, STRUCT, UNION, FWD, TYPEDEF, FUNC, FUNC_PROTO, VAR, DATASEC, DECL_TAG, TYPE_TAG = 2, 3, 4, 5, 7, 8, 12, 13, 14, 15, 17, 18
MODIFIERS = (TYPEDEF, 9, 10, 11, TYPE_TAG)  # typedef volatile const restrict type_tag
# CO-RE relocation kinds that compare whole types (TYPE_ID_LOCAL/TARGET,
# TYPE_EXISTS, TYPE_SIZE, TYPE_MATCHES): their root keeps everything it reaches
CORE_TYPE_KINDS = (6, 7, 8, 9, 12)


def btf_records(types):
    """[(kind, record bytes, [positions of u32 type ids in the record])]"""
    recs, p = [], 0
    while p < len(types):
        info = struct.unpack_from('<I', types, p + 4)[0]
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        refs = [8] if kind in (PTR, FUNC, FUNC_PROTO, VAR, DECL_TAG) + MODIFIERS else []
        n = 12
        if kind in (1, VAR, DECL_TAG):
            n += 4
        elif kind == ARRAY:
            refs += [12, 16]
            n += 12
        elif kind in (STRUCT, UNION):
            refs += [12 + 12 * i + 4 for i in range(vlen)]
            n += 12 * vlen
        elif kind == 6:
            n += 8 * vlen
        elif kind == FUNC_PROTO:
            refs += [12 + 8 * i + 4 for i in range(vlen)]
            n += 8 * vlen
        elif kind == DATASEC:
            refs += [12 + 12 * i for i in range(vlen)]
            n += 12 * vlen
        elif kind == 19:
            n += 12 * vlen
        elif kind not in (FWD, 16, PTR, FUNC) + MODIFIERS:
            die('unknown BTF kind %d' % kind)
        if p + n > len(types):
            die('BTF types overrun their section')
        recs.append((kind, bytearray(types[p:p + n]), refs))
        p += n
    return recs


def ext_records(ext, part):
    """Positions (in ext) of the records of .BTF.ext part 0 (func_info) or
    2 (core_relo), and the record size."""
    ehlen = struct.unpack_from('<I', ext, 4)[0]
    off, length = struct.unpack_from('<II', ext, 8 + 8 * part)
    if not length:
        return [], 0
    rec = struct.unpack_from('<I', ext, ehlen + off)[0]
    q, end, out = ehlen + off + 4, ehlen + off + length, []
    while q < end:
        n = struct.unpack_from('<I', ext, q + 4)[0]
        q += 8
        out += range(q, q + n * rec, rec)
        q += n * rec
    if q != end:
        die('.BTF.ext part %d overruns' % part)
    return out, rec


def trim_types(btf, ext):
    """Keep only the BTF types the object uses, so that each tool's start
    unpacks, parses and hands the kernel less: execsnoop's .BTF was 20 KB,
    most of it task_struct's 248 members and the structs embedded in them,
    there because its CO-RE reads start at task_struct.

    Kept whole: every FUNC and its prototype, with the pointee of each
    pointer argument of a global function (the verifier sizes those
    arguments by it); every VAR and DATASEC with all they reach (map
    definitions: key and value types; globals); all that a whole-type
    CO-RE relocation (type id/exists/size/matches) reaches.
    A field relocation's access string walks from its root through
    embedded members and array elements only (a pointer member ends a walk;
    what it points to is another relocation's root): a struct or union on
    such a walk and needed nowhere else keeps only the members some walk
    takes, at their own offsets, with its own size, and the access strings
    are rewritten for the new member positions (CO-RE finds the kernel's
    member by name; the local offsets it checks the code against are those
    of the kept members, unchanged).  The field a walk ends at keeps its
    type.  A struct or union reached only behind a pointer from all that is
    kept as a forward declaration of the same name (CO-RE compares pointer
    members as pointers only; the kernel accepts pointers to forward
    declarations).  DECL_TAGs go with the type they tag.  Type ids are
    renumbered in the types, func_info and the CO-RE records."""
    magic, ver, flags, hlen, toff, tlen, soff, slen = struct.unpack_from('<HBBIIIII', btf, 0)
    if magic != 0xeb9f or hlen < 24 or hlen + soff + slen > len(btf) or hlen + toff + tlen > len(btf):
        die('bad .BTF header')
    recs = [None] + btf_records(btf[hlen + toff:hlen + toff + tlen])
    strs = bytearray(btf[hlen + soff:hlen + soff + slen])
    ext = bytearray(ext)
    full, fwd, partial, seen = set(), set(), {}, set()

    def child(rec, pos):
        t = struct.unpack_from('<I', rec, pos)[0]
        if t >= len(recs):
            die('BTF type id %d out of range' % t)
        return t

    def visit(t, behind=False, deep=False, args_whole=False):
        stack = [(t, behind, args_whole)]
        while stack:
            t, behind, args_whole = stack.pop()
            if not t:
                continue
            kind, rec, refs = recs[t]
            if kind in (STRUCT, UNION) and behind and not deep:
                fwd.add(t)
                continue
            key = (t, behind and kind in MODIFIERS, deep, args_whole)
            if key in seen:
                continue
            seen.add(key)
            full.add(t)
            for pos in refs:
                c = child(rec, pos)
                if kind == PTR:
                    stack.append((c, True, False))
                elif kind in MODIFIERS:
                    stack.append((c, behind, False))
                elif kind == FUNC:  # linkage 1: global
                    stack.append((c, False, struct.unpack_from('<I', rec, 4)[0] & 0xffff == 1))
                elif kind == FUNC_PROTO and args_whole and recs[c] and recs[c][0] == PTR:
                    full.add(c)
                    stack.append((child(recs[c][1], 8), False, False))
                else:
                    stack.append((c, False, False))

    def skip_mods(t):
        while t and recs[t][0] in MODIFIERS:
            full.add(t)  # kept, and what it names is kept below
            t = child(recs[t][1], 8)
        return t

    for t in range(1, len(recs)):
        if recs[t][0] in (FUNC, VAR, DATASEC):
            visit(t, deep=recs[t][0] != FUNC)
    core, _ = ext_records(ext, 2)
    walks = []  # (record position, root, [(struct id or None, index)])
    for q in core:
        t, kind = struct.unpack_from('<I', ext, q + 4)[0], struct.unpack_from('<I', ext, q + 12)[0]
        if t >= len(recs) or not t:
            die('CO-RE record type id %d out of range' % t)
        if kind > 5:  # type and enum value relocations: the root whole
            visit(t, deep=kind in CORE_TYPE_KINDS)
            continue
        spec = cstr(strs, struct.unpack_from('<I', ext, q + 8)[0]).decode()
        try:
            idx = [int(x) for x in spec.split(':')]
        except ValueError:
            die('CO-RE access string %r' % spec)
        steps, cur = [], skip_mods(t)
        for i in idx[1:]:
            kind_c, rec, refs = recs[cur]
            if kind_c in (STRUCT, UNION):
                if i >= len(refs):
                    die('CO-RE access string %r past %d members' % (spec, len(refs)))
                partial.setdefault(cur, set()).add(i)
                steps.append(cur)
                nxt = child(rec, refs[i])
            elif kind_c == ARRAY:
                full.add(cur)
                visit(child(rec, 16))  # the index type
                steps.append(None)
                nxt = child(rec, 12)
            else:
                die('CO-RE access string %r walks into kind %d' % (spec, kind_c))
            cur = nxt if i == idx[-1] and len(steps) == len(idx) - 1 else skip_mods(nxt)
        if len(idx) == 1:
            visit(t)
        else:
            visit(cur)  # the field's own type
        walks.append((q, idx, steps))
    for t in range(1, len(recs)):
        if recs[t][0] == DECL_TAG and child(recs[t][1], 8) in full:
            full.add(t)

    # members kept: positions in the new struct
    member_at = {t: {i: n for n, i in enumerate(sorted(m))} for t, m in partial.items() if t not in full}
    added = {}
    for q, idx, steps in walks:
        new = [idx[0]] + [member_at[s][i] if s in member_at else i for s, i in zip(steps, idx[1:])]
        if new != idx:
            text = ':'.join(map(str, new)).encode()
            if text not in added:
                added[text] = len(strs)
                strs += text + b'\0'
            struct.pack_into('<I', ext, q + 8, added[text])

    newid, out = {0: 0}, bytearray()
    for t in range(1, len(recs)):
        if t in full or t in member_at or t in fwd:
            newid[t] = len(newid)
    for t in range(1, len(recs)):
        kind, rec, refs = recs[t]
        if t in full:
            for pos in refs:
                struct.pack_into('<I', rec, pos, newid[child(rec, pos)])
            out += rec
        elif t in member_at:
            keep = sorted(member_at[t])
            info = struct.unpack_from('<I', rec, 4)[0]
            out += rec[:4] + struct.pack('<I', (info & ~0xffff) | len(keep)) + rec[8:12]
            for i in keep:
                m = bytearray(rec[12 + 12 * i:24 + 12 * i])
                struct.pack_into('<I', m, 4, newid[child(m, 4)])
                out += m
        elif t in fwd:  # same name; kind_flag 1: a union
            out += struct.pack('<III', struct.unpack_from('<I', rec, 0)[0],
                               FWD << 24 | (kind == UNION) << 31, 0)
    for part in (0, 2):
        for q in ext_records(ext, part)[0]:
            t = struct.unpack_from('<I', ext, q + 4)[0]
            if t not in newid:
                die('.BTF.ext refers to type id %d, which was dropped' % t)
            struct.pack_into('<I', ext, q + 4, newid[t])
    hdr = struct.pack('<HBBIIIII', magic, ver, flags, hlen, 0, len(out), len(out), len(strs))
    return hdr + btf[24:hlen] + bytes(out) + bytes(strs), bytes(ext)

def btf_strings_and_ext(btf, ext, keep_lines):
    """Rebuild the .BTF string section with only the referenced strings;
    drop line_info from .BTF.ext unless keep_lines."""
    magic, ver, flags, hlen, toff, tlen, soff, slen = struct.unpack_from('<HBBIIIII', btf, 0)
    if magic != 0xeb9f or hlen < 24:
        die('bad .BTF header')
    types = bytearray(btf[hlen + toff:hlen + toff + tlen])
    strs = btf[hlen + soff:hlen + soff + slen]
    refs = []  # (buffer, position of a u32 string offset)
    p = 0
    while p < len(types):
        refs.append((types, p))
        info = struct.unpack_from('<I', types, p + 4)[0]
        kind, vlen = (info >> 24) & 0x1f, info & 0xffff
        p += 12
        if kind in (1, 14, 17):        # INT, VAR, DECL_TAG: one u32
            p += 4
        elif kind == 3:                # ARRAY
            p += 12
        elif kind in (4, 5):           # STRUCT, UNION: name type offset
            for _ in range(vlen):
                refs.append((types, p))
                p += 12
        elif kind in (6, 13):          # ENUM: name val; FUNC_PROTO: name type
            for _ in range(vlen):
                refs.append((types, p))
                p += 8
        elif kind == 15:               # DATASEC: type offset size (no names)
            p += 12 * vlen
        elif kind == 19:               # ENUM64: name lo hi
            for _ in range(vlen):
                refs.append((types, p))
                p += 12
        elif kind not in (2, 7, 8, 9, 10, 11, 12, 16, 18):
            die('unknown BTF kind %d' % kind)
    if p != len(types):
        die('BTF types overrun their section')

    ehdr = struct.unpack_from('<HBBI', ext, 0)
    ehlen = ehdr[3]
    if ehdr[0] != 0xeb9f or ehlen < 32:
        die('bad .BTF.ext header (no CO-RE part)')
    foff, flen, loff, llen, coff, clen = struct.unpack_from('<6I', ext, 8)
    subs = []
    for off, length, kind in ((foff, flen, 'func'), (loff, llen, 'line'), (coff, clen, 'core')):
        buf = bytearray(ext[ehlen + off:ehlen + off + length])
        if kind == 'line' and not keep_lines:
            buf = bytearray()
        if buf:
            rec = struct.unpack_from('<I', buf, 0)[0]
            q = 4
            while q < len(buf):
                refs.append((buf, q))  # the ELF section name
                n = struct.unpack_from('<I', buf, q + 4)[0]
                q += 8
                for _ in range(n):
                    if kind == 'line':   # insn_off file_name_off line_off line_col
                        refs.append((buf, q + 4))
                        refs.append((buf, q + 8))
                    elif kind == 'core':  # insn_off type_id access_str_off kind
                        refs.append((buf, q + 8))
                    q += rec
            if q != len(buf):
                die('.BTF.ext %s_info overruns its part' % kind)
        subs.append(buf)

    new = bytearray(b'\0')
    where = {0: 0}
    for buf, q in refs:
        off = struct.unpack_from('<I', buf, q)[0]
        if off not in where:
            if off >= len(strs):
                die('BTF string offset %d out of range' % off)
            where[off] = len(new)
            new += cstr(strs, off) + b'\0'
        struct.pack_into('<I', buf, q, where[off])

    btf_out = struct.pack('<HBBIIIII', magic, ver, flags, hlen, 0, len(types), len(types), len(new))
    btf_out += btf[24:hlen] + types + new
    ext_out = bytearray(ext[:ehlen])
    f, l, c = subs
    struct.pack_into('<6I', ext_out, 8, 0, len(f), len(f), len(l), len(f) + len(l), len(c))
    ext_out += f + l + c
    return bytes(btf_out), bytes(ext_out)


def slim(d, keep_lines=False):
    if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
        die('not a 64-bit little-endian ELF file')
    etype, machine = struct.unpack_from('<HH', d, 16)
    if etype != 1 or machine != 247:
        die('not a BPF relocatable object')
    shoff = struct.unpack_from('<Q', d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    if shentsize != SHDR.size:
        die('unexpected section header size')
    sh = [list(SHDR.unpack_from(d, shoff + i * SHDR.size)) for i in range(shnum)]
    data = [bytearray(d[s[4]:s[4] + s[5]]) if s[1] != SHT_NOBITS else bytearray() for s in sh]
    names = [cstr(data[shstrndx], s[0]).decode() for s in sh]

    if '.BTF' in names and '.BTF.ext' in names:
        bi, ei = names.index('.BTF'), names.index('.BTF.ext')
        b, e = trim_types(bytes(data[bi]), bytes(data[ei]))
        b, e = btf_strings_and_ext(b, e, keep_lines)
        data[bi], data[ei] = bytearray(b), bytearray(e)

    # symbols: drop unreferenced local NOTYPE ones (branch labels)
    symtabs = [i for i, s in enumerate(sh) if s[1] == SHT_SYMTAB]
    if len(symtabs) != 1:
        die('expected one symbol table')
    st = symtabs[0]
    if sh[st][6] != shstrndx:
        die('symbol names and section names in different string tables')
    syms = [list(SYM.unpack_from(data[st], i)) for i in range(0, len(data[st]), SYM.size)]
    rels = [i for i, s in enumerate(sh) if s[1] == SHT_REL and s[6] == st]
    used = set()
    for r in rels:
        for q in range(0, len(data[r]), 16):
            used.add(struct.unpack_from('<Q', data[r], q + 8)[0] >> 32)
    keep, newidx = [], {}
    for i, s in enumerate(syms):
        bind, typ = s[1] >> 4, s[1] & 15
        if i and bind == STB_LOCAL and typ == STT_NOTYPE and i not in used and s[3] != 0:
            continue
        newidx[i] = len(keep)
        keep.append(s)
    for r in rels:
        for q in range(0, len(data[r]), 16):
            info = struct.unpack_from('<Q', data[r], q + 8)[0]
            struct.pack_into('<Q', data[r], q + 8, newidx[info >> 32] << 32 | (info & 0xffffffff))
    sh[st][7] = sum(1 for s in keep if s[1] >> 4 == STB_LOCAL)  # first non-local

    # the one string table, rebuilt for the names still used
    old = bytes(data[shstrndx])
    new = bytearray(b'\0')
    where = {0: 0}

    def name(off):
        if off not in where:
            where[off] = len(new)
            new.extend(cstr(old, off) + b'\0')
        return where[off]
    for s in sh:
        s[0] = name(s[0])
    for s in keep:
        s[0] = name(s[0])
    data[shstrndx] = new
    data[st] = bytearray(b''.join(SYM.pack(*s) for s in keep))
    # .llvm_addrsig lists symbol indices, which moved; nothing reads it
    for i, s in enumerate(sh):
        if s[1] == SHT_LLVM_ADDRSIG:
            data[i] = bytearray()

    # lay the sections out again, in the same order, headers last
    out = bytearray(d[:64])
    for i, s in enumerate(sh):
        if i == 0:
            continue
        if s[1] == SHT_NOBITS:
            s[4] = len(out)
            continue
        align = max(s[8], 1)
        out += b'\0' * (-len(out) % align)
        s[4], s[5] = len(out), len(data[i])
        out += data[i]
    out += b'\0' * (-len(out) % 8)
    struct.pack_into('<Q', out, 0x28, len(out))
    for s in sh:
        out += SHDR.pack(*s)
    return bytes(out)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if len(args) != 2:
        die('usage: bpfslim.py IN.bpf.o OUT.bpf.o [--keep-lines]')
    with open(args[0], 'rb') as f:
        d = f.read()
    out = slim(d, '--keep-lines' in sys.argv)
    with open(args[1], 'wb') as f:
        f.write(out)


if __name__ == '__main__':
    main()
