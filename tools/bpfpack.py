#!/usr/bin/env python3
"""bpfpack.py OUTDIR OBJ... : compress the tools' BPF objects for embedding
(build time only; the Makefile runs it on bpfslim.py's output).

Each object is deflated on its own, so a tool inflates only its own, but
against one preset dictionary (zlib's "zdict": the inflater starts with the
dictionary in its window, so a match may reach back into it).  The objects
share most of their bytes: the same kernel struct definitions in their BTF,
the same type and member names, similar section headers and symbol tables.
Alone, each object pays for its copy; with the dictionary the shared part is
stored once.  The dictionary is embedded as it is, not deflated: inflating
it too cost each tool's start ~0.3 ms, and at 12 KiB plain it makes the
objects and itself 128 KB (55 objects), where 32 KiB deflated made 119 KB
and no dictionary 157 KB.

The dictionary is chosen like zstd's COVER trainer: an 8-byte string
counts once per object it occurs in; segments of the objects are scored by
the counts of the distinct strings in them that are not covered yet, and the
best segment is taken until DICT_SIZE bytes are full.  The best
segments go last: near the data, where matches are cheapest to code.

Writes OUTDIR/NAME.cbz for each OBJ (NAME: the file name up to the first
dot), the dictionary OUTDIR/corebox-dict.bin and OUTDIR/sizes.txt ("NAME PACKED_BYTES" lines, for
make bench).  The format (lib/inflate.h, cbz_unpack): "cbz", a flags byte
(1: deflated against the dictionary), the inflated size and its Adler-32
(u32 little-endian each), then the raw DEFLATE data."""
import heapq
import os
import struct
import sys
import zlib

DMER = 8           # the strings counted
SEGMENT = 256      # the pieces the dictionary is made of
STEP = 64          # candidate segments start every STEP bytes
DICT_SIZE = 12288  # (at most 32 KiB: DEFLATE's window); 10-16 KiB were best


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


def deflate(data, zdict=None):
    if zdict:
        c = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zdict=zdict)
    else:
        c = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    return c.compress(data) + c.flush()


def cbz(data, zdict=None):
    return b'cbz' + bytes([1 if zdict else 0]) + struct.pack('<II', len(data), zlib.adler32(data)) + \
        deflate(data, zdict)


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
