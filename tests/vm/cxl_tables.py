#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""cxl_tables.py - the firmware tables of the CXL guest (tests/vm/lib.sh,
vm_config_cxl), made on the host before it boots.

  cxl_tables.py cdat OUT MIB RD_LAT_NS WR_LAT_NS RD_BW_MBS WR_BW_MBS
      A CDAT for QEMU's cxl-type3 cdat=OUT: one volatile range (DSMAS) of
      MIB MiB at DPA 0, its four figures (DSLBIS: read and write latency,
      entry in ns over a base of 1000 ps; read and write bandwidth in MB/s
      over a base of 1) and its EFI memory type (DSEMTS).

  cxl_tables.py acpi OUTDIR UID GP_PXM "LAT0 LAT1" "BW0 BW1" QEMU_ARGS...
      OUTDIR/acpi.cpio, an uncompressed cpio of kernel/firmware/acpi/*.aml
      for the kernel's table upgrade: the SRAT and HMAT QEMU builds for
      QEMU_ARGS, plus a Generic Port Affinity structure (SRAT type 6, the
      ACPI0016 host bridge of _UID UID in proximity domain GP_PXM) and HMAT
      access latency (ns) and bandwidth (MB/s) from initiators 0 and 1 to
      it, each with its OEM revision raised so that the kernel takes it;
      and cxl_qtg.aml, the QTG _DSM that QEMU 7.2 leaves out (cxl_qtg.asl,
      compiled with iasl).  QEMU 7.2 builds no generic port and no _DSM,
      and without both the kernel computes no access coordinates for CXL
      memory.  QEMU's tables are read from its fw_cfg file
      etc/acpi/tables through the qtest protocol, with the machine stopped
      (-S): no guest runs.
"""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def checksum(b, at):
    """Set byte at so that all of b sums to 0 mod 256."""
    b[at] = 0
    b[at] = (-sum(b)) & 0xFF


def cdat(out, mib, rd_lat, wr_lat, rd_bw, wr_bw):
    length = mib << 20

    def sub(kind, body):            # type u8, reserved u8, length u16
        return struct.pack('<BBH', kind, 0, 4 + len(body)) + body

    # DSMAS: handle 0, flags 0 (volatile), DPA base 0, length.
    body = sub(0, struct.pack('<BBHQQ', 0, 0, 0, 0, length))
    # DSLBIS: handle 0, flags 0, HMAT data type, base unit, entry[3].
    for kind, base, entry in ((1, 1000, rd_lat), (2, 1000, wr_lat), (4, 1, rd_bw), (5, 1, wr_bw)):
        body += sub(1, struct.pack('<BBBBQHHHH', 0, 0, kind, 0, base, entry, 0, 0, 0))
    # DSEMTS: handle 0, EFI_MEMORY_SP (1), DPA offset 0, length.
    body += sub(4, struct.pack('<BBHQQ', 0, 1, 0, 0, length))
    table = bytearray(struct.pack('<IBB6sI', 16 + len(body), 1, 0, bytes(6), 0)) + body
    checksum(table, 5)
    with open(out, 'wb') as f:
        f.write(table)


class QTest:
    """QEMU's qtest protocol on stdio: one command, one OK line."""

    def __init__(self, args):
        self.p = subprocess.Popen(['qemu-system-x86_64'] + args +
                                  ['-S', '-display', 'none', '-qtest', 'stdio', '-qtest-log', '/dev/null'],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def cmd(self, line):
        self.p.stdin.write(line + '\n')
        self.p.stdin.flush()
        while True:
            reply = self.p.stdout.readline()
            if not reply:
                sys.exit('cxl_tables.py: qemu exited (%s)' % line)
            if reply.startswith('OK'):
                return reply.split()
            if reply.startswith(('FAIL', 'ERR')):
                sys.exit('cxl_tables.py: qtest %s: %s' % (line, reply.strip()))

    def fw_cfg(self, key, n):
        """n bytes of fw_cfg item key (selector port 0x510, data 0x511)."""
        self.cmd('outw 0x510 %#x' % key)
        return bytes(int(self.cmd('inb 0x511')[1], 16) for _ in range(n))

    def fw_cfg_file(self, name):
        count = struct.unpack('>I', self.fw_cfg(0x19, 4))[0]
        ents = self.fw_cfg(0x19, 4 + 64 * count)[4:]
        for i in range(count):
            size, key = struct.unpack_from('>IH', ents, 64 * i)
            if ents[64 * i + 8:64 * i + 64].split(b'\0')[0].decode() == name:
                return self.fw_cfg(key, size)
        sys.exit('cxl_tables.py: no fw_cfg file %s' % name)

    def close(self):
        self.p.stdin.close()
        self.p.kill()
        self.p.wait()


def qemu_tables(args):
    """{signature: bytearray} of the tables in etc/acpi/tables: a FACS of
    64 bytes, then one table after another up to the zero padding."""
    q = QTest(args)
    blob = q.fw_cfg_file('etc/acpi/tables')
    q.close()
    tables, off = {}, 64
    while off + 36 <= len(blob):
        sig, length = blob[off:off + 4], struct.unpack_from('<I', blob, off + 4)[0]
        if length < 36 or not sig.isalpha():
            break
        tables[sig.decode()] = bytearray(blob[off:off + length])
        off += length
    return tables


def upgraded(t):
    """t with its length set, OEM revision raised by one, summed again."""
    struct.pack_into('<I', t, 4, len(t))
    struct.pack_into('<I', t, 24, struct.unpack_from('<I', t, 24)[0] + 1)
    checksum(t, 9)
    return t


def hmat_locality(data_type, base, initiators, target, entries):
    """An HMAT System Locality Latency and Bandwidth structure (type 1),
    memory hierarchy, initiators -> one target."""
    body = struct.pack('<%dI' % len(initiators), *initiators) + struct.pack('<I', target)
    body += struct.pack('<%dH' % len(entries), *entries)
    body += bytes((-len(body)) % 4)
    return struct.pack('<HHIBBBBIIIQ', 1, 0, 32 + len(body), 0, data_type, 0, 0,
                       len(initiators), 1, 0, base) + body


def acpi(outdir, uid, gp, lats, bws, qemu_args):
    tables = qemu_tables(qemu_args)
    for sig in ('SRAT', 'HMAT'):
        if sig not in tables:
            sys.exit('cxl_tables.py: QEMU built no %s (hmat=on and -numa missing?)' % sig)
    srat, hmat = tables['SRAT'], tables['HMAT']
    # Generic Port Affinity: type 6, length 32, reserved, handle type 0
    # (ACPI), proximity domain, handle (_HID[8], _UID u32, 4 reserved),
    # flags (bit 0 enabled), reserved.
    srat += struct.pack('<BBBBI8sIIII', 6, 32, 0, 0, gp, b'ACPI0016', uid, 0, 1, 0)
    hmat += hmat_locality(0, 1000, [0, 1], gp, lats)  # access latency, entries in ns
    hmat += hmat_locality(3, 1, [0, 1], gp, bws)      # access bandwidth, MB/s
    d = os.path.join(outdir, 'cpio', 'kernel', 'firmware', 'acpi')
    os.makedirs(d, exist_ok=True)
    for name, t in (('srat.aml', srat), ('hmat.aml', hmat)):
        with open(os.path.join(d, name), 'wb') as f:
            f.write(upgraded(t))
    asl = os.path.join(outdir, 'cxl_qtg.asl')
    with open(os.path.join(HERE, 'cxl_qtg.asl')) as src, open(asl, 'w') as dst:
        dst.write(src.read())
    r = subprocess.run(['iasl', '-p', os.path.join(d, 'cxl_qtg'), asl], capture_output=True, text=True)
    if r.returncode or not os.path.exists(os.path.join(d, 'cxl_qtg.aml')):
        sys.exit('cxl_tables.py: iasl failed on cxl_qtg.asl:\n' + r.stdout + r.stderr)
    # Uncompressed: the kernel looks for tables only in an uncompressed cpio.
    subprocess.run('cd "%s/cpio" && find kernel | cpio -o -H newc --quiet > ../acpi.cpio' % outdir,
                   shell=True, check=True)


def main(argv):
    if len(argv) == 8 and argv[1] == 'cdat':
        cdat(argv[2], *map(int, argv[3:8]))
    elif len(argv) > 7 and argv[1] == 'acpi':
        acpi(argv[2], int(argv[3]), int(argv[4]), [int(x) for x in argv[5].split()],
             [int(x) for x in argv[6].split()], argv[7:])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
