#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# make_hmat.py - writes the HMAT samples of tests/data/hmat and the bad ones
# of tests/data/bad (README.md in both says what each holds).  Run from the
# tree's root: python3 tests/data/hmat/make_hmat.py
import struct

SLIT = [[10, 16, 22, 22], [16, 10, 22, 22], [22, 22, 10, 16], [22, 22, 16, 10]]
LAT = {10: 80, 16: 130, 22: 200}          # ns, as tests/vm/lib.sh gives QEMU
BW = {10: 20480, 16: 10240, 22: 5120}     # MB/s


def header(length, oem_rev=1):
    return (b"HMAT" + struct.pack("<IBB", length, 2, 0) + b"BOCHS " + b"BXPCHMAT" +
            struct.pack("<I", oem_rev) + b"BXPC" + struct.pack("<I", 1))


def mpda(init, mem):
    return struct.pack("<HHIHHIIIQQ", 0, 0, 40, 1, 0, init, mem, 0, 0, 0)


def lb(data_type, base, entries, inits=(0, 1, 2, 3), targs=(0, 1, 2, 3), flags=0):
    body = struct.pack("<BBBBIII Q", flags, data_type, 0, 0, len(inits), len(targs), 0, base)
    body += b"".join(struct.pack("<I", i) for i in inits)
    body += b"".join(struct.pack("<I", t) for t in targs)
    body += b"".join(struct.pack("<H", e) for row in entries for e in row)
    return struct.pack("<HHI", 1, 0, 8 + len(body)) + body


def cache(mem, size, attrs, handles=()):
    body = struct.pack("<IIQIHH", mem, 0, size, attrs, 0, len(handles))
    body += b"".join(struct.pack("<H", h) for h in handles)
    return struct.pack("<HHI", 2, 0, 8 + len(body)) + body


def table(structs):
    body = b"\0\0\0\0" + b"".join(structs)
    t = bytearray(header(36 + len(body)) + body)
    t[9] = (-sum(t)) & 0xff
    return bytes(t)


lat = [[LAT[d] for d in row] for row in SLIT]
lat[0][2] = 110        # out of order: nearer than 0->1 (130), where the SLIT says 22 > 16
bw = [[BW[d] for d in row] for row in SLIT]
# Latency in ps with a base unit of 1000 (1 ns), bandwidth in MB/s, base 1.
good = [mpda(n, n) for n in range(4)] + [
    lb(0, 1000, lat), lb(3, 1, bw),
    # node 0: a 64 MiB direct-mapped write-back memory-side cache, level 1 of 1, 64-byte lines
    cache(0, 64 << 20, 1 | 1 << 4 | 1 << 8 | 1 << 12 | 64 << 16, (0x1234,))]
open("tests/data/hmat/qemu-4node-odd.hmat", "wb").write(table(good))

whole = table(good)
bad = {
    "hmat-truncated.hmat": whole[:len(whole) - 10],
    "hmat-header-only.hmat": whole[:30],
    "hmat-struct-length-0.hmat": table([mpda(0, 0), struct.pack("<HHI", 1, 0, 0) + b"\0" * 24]),
    "hmat-lb-counts.hmat": table([lb(0, 1000, [[80]], inits=(0,), targs=(0,))[:12] +
                                  struct.pack("<II", 0x40000000, 0x40000000) +
                                  lb(0, 1000, [[80]], inits=(0,), targs=(0,))[20:]]),
    "hmat-data-type-7.hmat": table([lb(7, 1000, [[80]], inits=(0,), targs=(0,))]),
    "hmat-mpda-short.hmat": table([mpda(0, 0)[:4] + struct.pack("<I", 24) + mpda(0, 0)[8:24]]),
    "hmat-cache-handles.hmat": table([cache(0, 1 << 20, 0x11, (1,))[:30] + struct.pack("<H", 40) +
                                      cache(0, 1 << 20, 0x11, (1,))[32:]]),
    "hmat-not-hmat.hmat": b"SLIT" + whole[4:],
}
for name, data in bad.items():
    open("tests/data/bad/" + name, "wb").write(data)
