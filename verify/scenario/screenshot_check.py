#!/usr/bin/env python3
"""Fails when a Chromium screenshot looks blank: decodes the PNG (zlib only, no imaging package)
and counts the colours of a sample of its pixels.

usage: screenshot_check.py <shot.png> [minimum colours, default 20]
"""
import struct
import sys
import zlib


def sampled_colours(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"FAIL: {path} is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        sys.exit(f"FAIL: unexpected PNG format: depth {depth}, colour type {colour}, interlace {interlace}")
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    colours = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # undo the row's PNG filter
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                c = prev[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:
            colours.update(bytes(line[i:i + 3]) for i in range(0, stride, channels * 2))
        prev = line
    return width, height, colours


if __name__ == "__main__":
    path = sys.argv[1]
    minimum = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    width, height, colours = sampled_colours(path)
    print(f"screenshot {width}x{height}: {len(colours)} distinct colours (sampled)")
    if len(colours) < minimum:
        sys.exit(f"FAIL: {path} looks blank")
