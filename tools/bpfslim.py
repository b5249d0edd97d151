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
Everything else (types, func_info, CO-RE records, code, maps, the other
symbols) is copied as it is; offsets and indices that moved are rewritten.

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
        b, e = btf_strings_and_ext(bytes(data[bi]), bytes(data[ei]), keep_lines)
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
