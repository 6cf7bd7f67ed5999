#!/usr/bin/python3
"""Writes into --out DIR the small .npy/.npz files of tests/data/npy/ that tst_npyfile and tst_npzarchive read.

They are written by numpy itself, so the tests check HeadLens against the real format rather than
against its own writer. Every value follows a formula repeated in the tests.

Regenerate (needs numpy; Debian: apt install python3-numpy):
    /usr/bin/python3 scripts/make_npy_samples.py --out tests/data/npy
"""
import io
import os
import struct
import sys
import warnings
import zipfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_out import parse_out  # noqa: E402

if __name__ == "__main__":
    ARGS = parse_out(__doc__, "tests/data/npy")

import numpy as np  # noqa: E402
from numpy.lib import format as npy_format  # noqa: E402

OUT = None  # the --out folder, set before main() runs


def save(name, array):
    np.save(os.path.join(OUT, name), array)


def save_version(name, array, version):
    with open(os.path.join(OUT, name), "wb") as f:
        npy_format.write_array(f, array, version=version)


def npy_bytes(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def raw_zip(name, payload, declared_size, deflate):
    """A one-member zip64 archive whose headers claim `declared_size` unpacked bytes."""
    method = 8 if deflate else 0
    data = payload
    if deflate:
        packer = zlib.compressobj(wbits=-15)  # raw deflate, as zip members hold it
        data = packer.compress(payload) + packer.flush()
    crc = zlib.crc32(payload)
    raw_name = name.encode()
    sizes = struct.pack("<HHQQ", 1, 16, declared_size, len(data))  # zip64 extra: sizes
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, method, 0, 0x2821, crc,
                        0xFFFFFFFF, 0xFFFFFFFF, len(raw_name), len(sizes)) + raw_name + sizes
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, method, 0, 0x2821, crc,
                          0xFFFFFFFF, 0xFFFFFFFF, len(raw_name), len(sizes), 0, 0, 0, 0,
                          0) + raw_name + sizes
    body = local + data
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(body), 0)
    return body + central + end


def write_bytes(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def bad_archives(grid):
    """Archives HeadLens must refuse, each naming the member at fault."""
    with zipfile.ZipFile(os.path.join(OUT, "bad_not_npy_member.npz"), "w") as z:
        z.writestr("notes.txt", "hello")
    with zipfile.ZipFile(os.path.join(OUT, "bad_broken_member.npz"), "w") as z:
        z.writestr("grid.npy", npy_bytes(grid)[:-5])  # data cut short, CRC correct
    with zipfile.ZipFile(os.path.join(OUT, "bad_duplicate_member.npz"), "w") as z:
        z.writestr("grid.npy", npy_bytes(grid))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Duplicate name": exactly what we want here
            z.writestr("grid.npy", npy_bytes(grid))
    corrupt = bytearray(open(os.path.join(OUT, "sample_stored.npz"), "rb").read())
    corrupt[corrupt.index(b"\x93NUMPY") + 140] ^= 0xFF  # one data byte of "grid": CRC fails
    write_bytes("bad_crc.npz", bytes(corrupt))
    payload = npy_bytes(grid)
    write_bytes("bad_stored_size_lie.npz", raw_zip("grid.npy", payload, len(payload) + 64, False))
    write_bytes("bad_deflated_size_short.npz", raw_zip("grid.npy", payload, 100, True))
    write_bytes("bad_zip_bomb.npz", raw_zip("grid.npy", payload, 2 << 30, True))
    write_bytes("bad_over_4gib.npz", raw_zip("grid.npy", payload, 5 << 30, True))


def huge_declarations(payload):
    """Tiny archives whose headers ask for gigabytes or millions of members (resource caps)."""
    stored = raw_zip("grid.npy", payload, 3 << 30, False)
    # Both sizes in the zip64 extras claim 3 GiB: stored bytes the 200-byte file does not have.
    stored = stored.replace(struct.pack("<QQ", 3 << 30, len(payload)), struct.pack("<QQ", 3 << 30, 3 << 30))
    write_bytes("bad_stored_beyond_archive.npz", stored)
    # An end record alone, declaring 65535 members in a 22-byte file.
    write_bytes("bad_member_count.npz", struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF,
                                                    0xFFFF * 46, 0, 0))
    # A zip64 end record declaring 2^40 members.
    end64 = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, 1 << 40, 1 << 40, 46 << 40, 0)
    locator = struct.pack("<IIQI", 0x07064B50, 0, 0, 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    write_bytes("bad_zip64_member_count.npz", end64 + locator + end)


def main():
    os.makedirs(OUT, exist_ok=True)
    grid = (np.arange(6, dtype="<f4") * 0.5 - 1.0).reshape(2, 3)  # -1, -0.5, 0, 0.5, 1, 1.5
    mask = np.array([[False, False, True], [False, True, True]])
    ids = np.array([[0, 1, 2, 3], [4, 5, -1, -1]], dtype="<i8")

    # Readable: one per supported dtype, rank and header version.
    save("f4_2x3.npy", grid)
    save("f8_3.npy", np.array([0.1, -2.5, 1e10], dtype="<f8"))
    save("i8_2x4.npy", ids)
    save("i4_4.npy", np.array([7, -3, 0, 2147483647], dtype="<i4"))
    save("b1_2x3.npy", mask)
    save("u1_5.npy", np.array([0, 1, 127, 200, 255], dtype="|u1"))
    save("f4_scalar.npy", np.array(3.25, dtype="<f4"))
    save("f4_empty_0x3.npy", np.zeros((0, 3), dtype="<f4"))
    save("f4_2x1x3x2.npy", np.arange(12, dtype="<f4").reshape(2, 1, 3, 2))
    save_version("f4_v2_2x3.npy", grid, (2, 0))
    save_version("f4_v3_2x3.npy", grid, (3, 0))

    # Refused: valid for numpy, not for HeadLens.
    save("bad_fortran.npy", np.asfortranarray(grid))
    save("bad_bigendian.npy", grid.astype(">f4"))
    save("bad_float16.npy", grid.astype("<f2"))

    # Archives as numpy writes them: stored and deflated members.
    arrays = {"grid": grid, "mask": mask, "ids": ids}
    np.savez(os.path.join(OUT, "sample_stored.npz"), **arrays)
    np.savez_compressed(os.path.join(OUT, "sample_deflated.npz"), **arrays)
    bad_archives(grid)
    huge_declarations(npy_bytes(grid))


if __name__ == "__main__":
    OUT = ARGS.out
    main()
