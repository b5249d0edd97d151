#!/usr/bin/env python3
"""ELF fuzz seeds from a real Go binary linked by the system linker.

A Go binary built with -buildmode=pie -linkmode=external (cgo programs
are linked that way too) has no .gopclntab section: the table is merged
into .data.rel.ro, and elf/elf_go.c looks for its header there because
the file has a .go.buildinfo.  A whole table is hundreds of KB (over the
fuzzer's 64 KB inputs), so each seed is a small ELF with the binary's own
sections, cut down:

  go-buildinfo-pie     .go.buildinfo as in the binary; .data.rel.ro: the
                       256 bytes before the table's header, then the table
                       kept to a run of consecutive functions around main.*
                       (their real entries, names and func records,
                       offsets renumbered); .text (no bytes) at its address
  go-buildinfo-text0   the same with textStart 0, as a PIE's table has it
                       before relocation: the reader takes .text's address
  go-buildinfo-cut     the real header and the first 48 KB after it: a
                       function table outside the section (refused)

Usage: go_buildinfo.py GO_BINARY OUTDIR
(GO_BINARY: e.g. tests/e2e/helpers/cbx_go_spin.go built with
 go build -buildmode=pie -ldflags='-linkmode=external -s -w').
Go 1.18+ table layout (magic 0xfffffff0/0xfffffff1), 64-bit little endian.
"""
import struct
import sys

FUNC_FIXED = 40  # 1.18/1.19 _func without its pcdata/funcdata arrays


def sections(d):
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shnum, shstrndx = struct.unpack_from('<HH', d, 0x3c)
    secs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * 64) for i in range(shnum)]
    so = secs[shstrndx][4]
    out = {}
    for s in secs:
        name = d[so + s[0]:d.index(b'\0', so + s[0])].decode()
        out[name] = s
    return out


def find_header(rel):
    for at in range(0, len(rel) - 72, 8):
        if rel[at] in (0xf0, 0xf1) and rel[at + 1:at + 4] == b'\xff\xff\xff' and \
                rel[at + 4:at + 6] == b'\0\0' and rel[at + 7] == 8:
            return at
    sys.exit('no Go 1.18+ function table header in .data.rel.ro')


def compact(tab, keep_lo, keep_hi, text0):
    """A table of functions keep_lo..keep_hi-1 of tab (plus the end entry)."""
    magic, nfunc, nfiles, text, names, cu, files, pcs, pcln = \
        struct.unpack_from('<I4xQQQQQQQQ', tab, 0)
    k = keep_hi - keep_lo
    slot = lambda i: struct.unpack_from('<II', tab, pcln + i * 8)
    name_tab = bytearray(b'\0')
    recs = []
    for i in range(keep_lo, keep_hi):
        entry, foff = slot(i)
        rec = bytearray(tab[pcln + foff:pcln + foff + FUNC_FIXED])
        noff, = struct.unpack_from('<i', rec, 4)
        nm = tab[names + noff:tab.index(b'\0', names + noff)]
        struct.pack_into('<i', rec, 4, len(name_tab))
        name_tab += nm + b'\0'
        # the pcdata/funcdata arrays after the record are not kept
        struct.pack_into('<I', rec, 28, 0)  # npcdata
        rec[39] = 0  # nfuncdata
        recs.append((entry, rec))
    end_entry, _ = slot(keep_hi)
    hdr = 72
    new_names = hdr
    new_pcln = (hdr + len(name_tab) + 7) & ~7
    ftab = bytearray()
    body = bytearray()
    fo = (k + 1) * 8
    for entry, rec in recs:
        ftab += struct.pack('<II', entry, fo + len(body))
        body += rec
    ftab += struct.pack('<II', end_entry, fo + len(body))
    out = bytearray(struct.pack('<I', magic) + tab[4:8])
    # cu, file and pc tables are not kept: their offsets point at the end
    end = new_pcln + len(ftab) + len(body)
    out += struct.pack('<QQQQQQQQ', k, nfiles, 0 if text0 else text, new_names, end, end, end, new_pcln)
    out += name_tab
    out += b'\0' * (new_pcln - len(out))
    return bytes(out + ftab + body), text


def elf(secs):
    """An ET_DYN x86_64 ELF with secs [(name, type, flags, addr, bytes or size)]."""
    shstr = bytearray(b'\0')
    body = bytearray()
    hdrs = [b'\0' * 64]
    off = 64
    names = []
    for name, *_ in secs:
        names.append(len(shstr))
        shstr += name.encode() + b'\0'
    names.append(len(shstr))
    shstr += b'.shstrtab\0'
    for (name, typ, flags, addr, data), no in zip(secs, names):
        align = 32 if isinstance(data, bytes) else 1
        pad = (-(off + len(body))) % align
        body += b'\0' * pad
        at = off + len(body)
        size = len(data) if isinstance(data, bytes) else data
        if isinstance(data, bytes):
            body += data
        hdrs.append(struct.pack('<IIQQQQIIQQ', no, typ, flags, addr, at, size, 0, 0, align, 0))
    at = off + len(body)
    body += shstr
    hdrs.append(struct.pack('<IIQQQQIIQQ', names[-1], 3, 0, 0, at, len(shstr), 0, 0, 1, 0))
    body += b'\0' * ((-(off + len(body))) % 8)
    shoff = off + len(body)
    eh = b'\x7fELF\x02\x01\x01' + b'\0' * 9 + struct.pack(
        '<HHIQQQIHHHHHH', 3, 62, 1, 0, 0, shoff, 0, 64, 56, 0, 64, len(hdrs), len(hdrs) - 1)
    return eh + bytes(body) + b''.join(hdrs)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d = open(sys.argv[1], 'rb').read()
    S = sections(d)
    if '.go.buildinfo' not in S or '.data.rel.ro' not in S or '.gopclntab' in S:
        sys.exit('want a Go binary linked by the system linker (.go.buildinfo, .data.rel.ro, no .gopclntab)')
    bi = S['.go.buildinfo']
    buildinfo = d[bi[4]:bi[4] + bi[5]]
    r = S['.data.rel.ro']
    rel = d[r[4]:r[4] + r[5]]
    t = S['.text']
    at = find_header(rel)
    tab = rel[at:]
    nfunc, = struct.unpack_from('<Q', tab, 8)
    names, pcln = struct.unpack_from('<Q', tab, 32)[0], struct.unpack_from('<Q', tab, 64)[0]
    # the main.* functions and the ones around them (a consecutive run)
    mains = []
    for i in range(nfunc):
        foff, = struct.unpack_from('<I', tab, pcln + i * 8 + 4)
        noff, = struct.unpack_from('<i', tab, pcln + foff + 4)
        if tab[names + noff:names + noff + 5] == b'main.':
            mains.append(i)
    if not mains:
        sys.exit('no main.* function in the table')
    lo, hi = max(0, mains[0] - 24), min(nfunc, mains[-1] + 24)
    before = rel[max(0, at - 256):at]
    for name, text0 in (('go-buildinfo-pie', False), ('go-buildinfo-text0', True)):
        small, _ = compact(tab, lo, hi, text0)
        img = elf([('.text', 8, 6, t[3], t[5]),  # SHT_NOBITS: the address only
                   ('.data.rel.ro', 1, 3, r[3] + at - len(before), before + small),
                   ('.go.buildinfo', 1, 3, bi[3], buildinfo)])
        open('%s/%s' % (sys.argv[2], name), 'wb').write(img)
    img = elf([('.text', 8, 6, t[3], t[5]),
               ('.data.rel.ro', 1, 3, r[3] + at, tab[:48 << 10]),
               ('.go.buildinfo', 1, 3, bi[3], buildinfo)])
    open('%s/go-buildinfo-cut' % sys.argv[2], 'wb').write(img)


main()
