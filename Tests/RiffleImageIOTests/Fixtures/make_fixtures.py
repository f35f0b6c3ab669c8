#!/usr/bin/env python3
"""Regenerates the RiffleImageIO test fixtures in this directory.

Run from anywhere: python3 make_fixtures.py. Needs ImageMagick 6 (`convert`) for the JPEGs;
the PNGs are written byte by byte here so every colour type and bit depth is exactly what its
name says. The pixel patterns are mirrored in ImageIOFixtures.swift; change both together.
"""
import os
import struct
import subprocess
import zlib

# ImageMagick stamps PNGs with the time unless told not to.
REPRODUCIBLE_PNG = ["-strip", "-define", "png:exclude-chunk=date,time"]
HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


# MARK: PNG writing

def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, bit_depth):
    """Samples of one row, packed MSB first (sub-byte depths) or big-endian (16-bit)."""
    if bit_depth == 8:
        return bytes(samples)
    if bit_depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    out = bytearray()
    per_byte = 8 // bit_depth
    for start in range(0, len(samples), per_byte):
        group = samples[start:start + per_byte]
        byte = 0
        for k, s in enumerate(group):
            byte |= s << (8 - bit_depth * (k + 1))
        out.append(byte)
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def write_png(name, width, height, bit_depth, color_type, pixel, extra_chunks=(), interlaced=False):
    """pixel(x, y) returns the tuple of samples of one pixel in file order."""
    raw = bytearray()
    passes = ADAM7 if interlaced else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        xs = list(range(x0, width, dx))
        ys = list(range(y0, height, dy))
        if not xs or not ys:
            continue
        for y in ys:
            samples = [s for x in xs for s in pixel(x, y)]
            raw += b"\x00" + pack_row(samples, bit_depth)
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlaced else 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    for kind, payload in extra_chunks:
        data += chunk(kind, payload)
    data += chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    with open(path(name), "wb") as f:
        f.write(data)
    return data


# The sample pattern, mirrored in ImageIOFixtures.swift: channel c of pixel i = x + y·width is
# (i·MULTIPLIERS[c] + OFFSETS[c]) mod (max + 1).
MULTIPLIERS = [37, 53, 71, 97]
OFFSETS = [11, 5, 3, 200]
W, H = 13, 7


def sample(x, y, channel, max_value):
    i = x + y * W
    return (i * MULTIPLIERS[channel] + OFFSETS[channel]) % (max_value + 1)


def png_fixtures():
    for depth in (1, 2, 4, 8, 16):
        m = (1 << depth) - 1
        write_png(f"gray{depth}.png", W, H, depth, 0, lambda x, y: (sample(x, y, 0, m),))
    for depth in (8, 16):
        m = (1 << depth) - 1
        write_png(f"gray-alpha{depth}.png", W, H, depth, 4,
                  lambda x, y: (sample(x, y, 0, m), sample(x, y, 3, m)))
        write_png(f"rgb{depth}.png", W, H, depth, 2,
                  lambda x, y: tuple(sample(x, y, c, m) for c in range(3)))
        write_png(f"rgba{depth}.png", W, H, depth, 6,
                  lambda x, y: tuple(sample(x, y, c, m) for c in range(4)))
    # Palettes: entry j is (j·37+11, j·53+5, j·71+3) mod 256; pixels index by channel 0's pattern.
    for depth in (1, 2, 4, 8):
        entries = 1 << depth
        plte = bytes(b for j in range(entries) for b in ((j * 37 + 11) % 256, (j * 53 + 5) % 256, (j * 71 + 3) % 256))
        write_png(f"palette{depth}.png", W, H, depth, 3, lambda x, y: (sample(x, y, 0, entries - 1),),
                  extra_chunks=[(b"PLTE", plte)])
    # Palette + tRNS: entry j has alpha (j·97+200) mod 256.
    plte = bytes(b for j in range(256) for b in ((j * 37 + 11) % 256, (j * 53 + 5) % 256, (j * 71 + 3) % 256))
    trns = bytes((j * 97 + 200) % 256 for j in range(256))
    write_png("palette8-trns.png", W, H, 8, 3, lambda x, y: (sample(x, y, 0, 255),),
              extra_chunks=[(b"PLTE", plte), (b"tRNS", trns)])
    # Gray + tRNS: the grey of pixel (0, 0), 11, is transparent wherever it appears.
    write_png("gray8-trns.png", W, H, 8, 0, lambda x, y: (sample(x, y, 0, 255),),
              extra_chunks=[(b"tRNS", struct.pack(">H", 11))])
    # Adam7 twins of non-interlaced fixtures.
    write_png("rgba8-adam7.png", W, H, 8, 6, lambda x, y: tuple(sample(x, y, c, 255) for c in range(4)),
              interlaced=True)
    write_png("gray2-adam7.png", W, H, 2, 0, lambda x, y: (sample(x, y, 0, 3),), interlaced=True)
    # eXIf orientation 6 (stored 7×13 upright 13×7 is not asserted here: see orientation JPEGs).
    exif = tiff_with_orientation(6)
    write_png("rgb8-exif6.png", W, H, 8, 2, lambda x, y: tuple(sample(x, y, c, 255) for c in range(3)),
              extra_chunks=[(b"eXIf", exif)])
    # A header claiming 60000×60000 with one byte of image data.
    ihdr = struct.pack(">IIBBBBB", 60000, 60000, 8, 6, 0, 0, 0)
    with open(path("huge-header.png"), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00")) +
                chunk(b"IEND", b""))
    # Truncated: a 96×64 noise PNG cut in the middle of its image data.
    convert("-seed", "7", "-size", "96x64", "plasma:red-blue", "+noise", "Gaussian", *REPRODUCIBLE_PNG,
            "-depth", "8", "PNG24:" + path("noise-full.tmp.png"))
    with open(path("noise-full.tmp.png"), "rb") as f:
        full = f.read()
    os.remove(path("noise-full.tmp.png"))
    with open(path("truncated.png"), "wb") as f:
        f.write(full[:len(full) // 2])


def tiff_with_orientation(value):
    """A little-endian TIFF structure whose IFD0 has one entry: Orientation = value."""
    header = b"II*\x00" + struct.pack("<I", 8)
    ifd = struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, value, 0) + struct.pack("<I", 0)
    return header + ifd


# MARK: JPEG fixtures

# Quadrant colours of the upright 64×32 picture, mirrored in ImageIOFixtures.swift.
QUADRANTS = {"top-left": "#FF0000", "top-right": "#00FF00", "bottom-left": "#0000FF", "bottom-right": "#FFFF00"}

# ImageMagick operation turning the upright picture into what a camera with each orientation
# stores (the inverse of the display transform).
STORE_FOR_ORIENTATION = {1: [], 2: ["-flop"], 3: ["-rotate", "180"], 4: ["-flip"], 5: ["-transpose"],
                         6: ["-rotate", "-90"], 7: ["-transverse"], 8: ["-rotate", "90"]}


def quadrants(width, height):
    w, h = width // 2, height // 2
    q = QUADRANTS
    return ["-size", f"{width}x{height}", "xc:black",
            "-fill", q["top-left"], "-draw", f"rectangle 0,0 {w - 1},{h - 1}",
            "-fill", q["top-right"], "-draw", f"rectangle {w},0 {width - 1},{h - 1}",
            "-fill", q["bottom-left"], "-draw", f"rectangle 0,{h} {w - 1},{height - 1}",
            "-fill", q["bottom-right"], "-draw", f"rectangle {w},{h} {width - 1},{height - 1}"]


def convert(*args):
    subprocess.run(["convert", *args], check=True)


def insert_exif(name, orientation):
    """Puts an APP1 Exif segment with the orientation right after SOI."""
    with open(path(name), "rb") as f:
        data = f.read()
    payload = b"Exif\x00\x00" + tiff_with_orientation(orientation)
    app1 = b"\xFF\xE1" + struct.pack(">H", len(payload) + 2) + payload
    with open(path(name), "wb") as f:
        f.write(data[:2] + app1 + data[2:])


def jpeg_fixtures():
    # 4:4:4 at quality 95 keeps flat quadrants within a few levels of their colour.
    sharp = ["-sampling-factor", "1x1", "-quality", "95", "-strip"]
    convert(*quadrants(64, 32), *sharp, path("baseline.jpg"))
    convert(*quadrants(64, 32), *sharp, "-interlace", "JPEG", path("progressive.jpg"))
    convert(*quadrants(64, 32), *sharp, "-colorspace", "Gray", path("gray.jpg"))
    convert(*quadrants(64, 32), *sharp, "-colorspace", "CMYK", path("cmyk-adobe.jpg"))
    convert(*quadrants(400, 300), "-quality", "90", "-strip", path("photo-400x300.jpg"))
    for orientation, operation in STORE_FOR_ORIENTATION.items():
        name = f"orientation-{orientation}.jpg"
        convert(*quadrants(64, 32), *operation, *sharp, path(name))
        insert_exif(name, orientation)
    # A PNG wearing a JPEG name, and text wearing one.
    convert(*quadrants(64, 32), *REPRODUCIBLE_PNG, "PNG24:" + path("png-named.jpg"))
    with open(path("text-named.jpg"), "w") as f:
        f.write("This is a text file, not a picture.\n")
    open(path("empty.jpg"), "wb").close()
    # Truncated: the 400×300 photo cut in the middle of its entropy-coded data.
    with open(path("photo-400x300.jpg"), "rb") as f:
        photo = f.read()
    with open(path("truncated.jpg"), "wb") as f:
        f.write(photo[:len(photo) // 2])
    # Corrupt header: the SOF0 marker's segment length overwritten with nonsense.
    sof = photo.index(b"\xFF\xC0")
    with open(path("corrupt-header.jpg"), "wb") as f:
        f.write(photo[:sof + 2] + b"\x00\x03" + photo[sof + 4:])
    # A header claiming 60000×60000 (SOF0 height and width patched).
    with open(path("huge-header.jpg"), "wb") as f:
        f.write(photo[:sof + 5] + struct.pack(">HH", 60000, 60000) + photo[sof + 9:])
    # A progressive file claiming 30000×30000 (SOF2 patched): small at 1/8, but libjpeg would
    # need every coefficient of the full image in memory.
    with open(path("progressive.jpg"), "rb") as f:
        progressive = f.read()
    sof2 = progressive.index(b"\xFF\xC2")
    with open(path("huge-progressive.jpg"), "wb") as f:
        f.write(progressive[:sof2 + 5] + struct.pack(">HH", 30000, 30000) + progressive[sof2 + 9:])


if __name__ == "__main__":
    png_fixtures()
    jpeg_fixtures()
