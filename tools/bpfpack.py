#!/usr/bin/env python3
"""bpfpack.py OUTDIR OBJ... : compress the tools' BPF objects for embedding
(build time only; the Makefile runs it on bpfslim.py's output).

Each object is packed on its own, so a tool unpacks only its own, but
against one preset dictionary (liblzma's preset_dict, zlib's zdict: the
decoder starts with the dictionary as if it had just decoded it, so a match
may reach back into it).  The objects
share most of their bytes: the same kernel struct definitions in their BTF,
the same type and member names, similar section headers and symbol tables.
Alone, each object pays for its copy; with the dictionary the shared part is
stored once.  The dictionary is embedded as it is, not packed: unpacking
it too cost each tool's start ~0.3 ms, and at 12 KiB plain it makes the
objects and itself 128 KB (55 objects), where 32 KiB deflated made 119 KB
and no dictionary 157 KB.

The objects are coded as raw LZMA2 (liblzma through ctypes: Python's lzma
module cannot take a preset dictionary; lib/xz.c decodes it), not DEFLATE:
73 objects and a 16 KiB dictionary take 130 KB where DEFLATE with a 12 KiB
one took 166 KB.  Once bpfslim.py kept only the types each object uses,
the objects shared less: 6 KiB of dictionary then made 115 KB, 16 KiB
118 KB.  lc = lp = pb = 0: the previous byte and the position tell
little about the next in these objects (0/0/0 was the smallest).

The dictionary is chosen like zstd's COVER trainer: an 8-byte string
counts once per object it occurs in; segments of the objects are scored by
the counts of the distinct strings in them that are not covered yet, and the
best segment is taken until DICT_SIZE bytes are full.  The best
segments go last: near the data, where matches are cheapest to code.

Writes OUTDIR/NAME.cbz for each OBJ (NAME: the file name up to the first
dot), the dictionary OUTDIR/corebox-dict.bin and OUTDIR/sizes.txt ("NAME PACKED_BYTES" lines, for
make bench).  The format (lib/inflate.h, cbz_unpack): "cbz", a flags byte
(1|4: LZMA2 against the dictionary), the unpacked size and its Adler-32
(u32 little-endian each), then the raw LZMA2 data."""
import ctypes
import ctypes.util
import heapq
import os
import struct
import sys
import zlib

DMER = 8           # the strings counted
SEGMENT = 256      # the pieces the dictionary is made of
STEP = 64          # candidate segments start every STEP bytes
DICT_SIZE = 6144   # 4-16 KiB tried on the trimmed objects (bpfslim.py trim_types): 6 KiB was best, 2.5 KB less than 16


def grams(seg):
    return {seg[i:i + DMER] for i in range(len(seg) - DMER + 1)}


def train(objs):
    freq = {}
    for x in objs:
        for g in grams(x):
            freq[g] = freq.get(g, 0) + 1

    def score(seg):  # the objects that could match into it, beyond one
        return sum(freq[g] - 1 for g in grams(seg) if freq[g] > 1)
    cands = {}
    for x in objs:
        for i in range(0, max(1, len(x) - SEGMENT + 1), STEP):
            cands.setdefault(x[i:i + SEGMENT], None)
    # lazy greedy: a segment's score only falls as others are taken, so a
    # stale score at the top of the heap is rescored and pushed back
    heap = [(-score(s), s) for s in sorted(cands)]
    heapq.heapify(heap)
    picked, size = [], 0
    while heap and size < DICT_SIZE:
        _, s = heapq.heappop(heap)
        sc = score(s)
        if sc <= 0:
            continue
        if heap and sc < -heap[0][0]:
            heapq.heappush(heap, (-sc, s))
            continue
        picked.append(s)
        size += len(s)
        for g in grams(s):
            freq[g] = 0
    return b''.join(reversed(picked))[-DICT_SIZE:]


def lzma2(data, zdict):
    """Raw LZMA2 of data against the preset dictionary zdict (liblzma:
    lzma_lzma_preset(9 | extreme), then lzma_raw_encoder).  The structures
    are filled by offset: lzma_options_lzma's first fields (dict_size,
    preset_dict, preset_dict_size, lc, lp, pb, mode, nice_len) and
    lzma_stream's (next_in, avail_in, total_in, next_out, avail_out,
    total_out), in buffers larger than either."""
    name = ctypes.util.find_library('lzma')
    if not name:
        sys.exit('bpfpack.py: liblzma (liblzma5) is needed')
    lz = ctypes.CDLL(name)
    lz.lzma_lzma_preset.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    lz.lzma_raw_encoder.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lz.lzma_code.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lz.lzma_end.argtypes = [ctypes.c_void_p]
    opts = ctypes.create_string_buffer(512)
    if lz.lzma_lzma_preset(opts, 9 | 0x80000000):
        sys.exit('bpfpack.py: lzma_lzma_preset failed')
    d = ctypes.create_string_buffer(zdict, len(zdict))
    struct.pack_into('<I', opts, 0, max(4096, 1 << (len(zdict) + len(data)).bit_length()))
    struct.pack_into('<QI', opts, 8, ctypes.addressof(d), len(zdict))
    struct.pack_into('<III', opts, 20, 0, 0, 0)
    filters = ctypes.create_string_buffer(32)
    struct.pack_into('<QQQQ', filters, 0, 0x21, ctypes.addressof(opts), 0xffffffffffffffff, 0)
    strm = ctypes.create_string_buffer(512)
    if lz.lzma_raw_encoder(strm, filters):
        sys.exit('bpfpack.py: lzma_raw_encoder failed')
    inb = ctypes.create_string_buffer(data, len(data))
    cap = 2 * len(data) + 1024
    outb = ctypes.create_string_buffer(cap)
    struct.pack_into('<QQQQQ', strm, 0, ctypes.addressof(inb), len(data), 0, ctypes.addressof(outb), cap)
    r = lz.lzma_code(strm, 3)  # LZMA_FINISH -> LZMA_STREAM_END
    n = struct.unpack_from('<Q', strm, 40)[0]
    lz.lzma_end(strm)
    if r != 1:
        sys.exit('bpfpack.py: lzma_code returned %d' % r)
    return outb.raw[:n]


def cbz(data, zdict):
    return b'cbz' + bytes([1 | 4]) + struct.pack('<II', len(data), zlib.adler32(data)) + lzma2(data, zdict)


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: bpfpack.py OUTDIR OBJ...')
    outdir, paths = sys.argv[1], sys.argv[2:]
    objs = []
    for p in paths:
        with open(p, 'rb') as f:
            objs.append(f.read())
    zdict = train(objs)
    sizes = []

    def write(name, blob):
        with open(os.path.join(outdir, name + '.tmp'), 'wb') as f:
            f.write(blob)
        os.replace(os.path.join(outdir, name + '.tmp'), os.path.join(outdir, name))
        sizes.append('%s %d' % (name.split('.')[0], len(blob)))
    write('corebox-dict.bin', zdict)
    for p, x in zip(paths, objs):
        write(os.path.basename(p).split('.')[0] + '.cbz', cbz(x, zdict))
    with open(os.path.join(outdir, 'sizes.txt'), 'w') as f:
        f.write('\n'.join(sizes) + '\n')


if __name__ == '__main__':
    main()
