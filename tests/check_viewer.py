# Copyright 2026 The acs authors.
#
# Test of viewer/ (acs-viewer): runs the viewer under Xvfb with --screenshot on
# test_models/stack_ratio.xml (a 100 kg box on a 0.1 kg box) with the solvers mujoco, ccp-pgs,
# admm and native, decodes the PNG (Python standard library only) and checks:
#   - the PNG has the requested size and is not blank;
#   - one pane per solver, in a 2 x 2 grid (found by the colors of the panes' title bars);
#   - where the states differ the panes' pixels differ: MuJoCo's soft contact sinks the heavy box
#     ~5 cm into the light one (and the light one into the floor), ccp-pgs stops at the
#     iteration limit and the stack topples, admm holds it;
#   - where the states are equal the pixels are equal: native is bit-identical to plain mj_step,
#     so its pane renders exactly the pixels of the mujoco pane.
# Then the error paths: unknown solver, more than 6 panes, a model that fails to load (the viewer
# keeps running and writes its window), a model acs refuses (RK4 with sleep: that pane shows the
# error, the others step).
#
#   check_viewer.py ACS_VIEWER XVFB_RUN TEST_MODELS_DIR
import os
import struct
import subprocess
import sys
import tempfile
import zlib

viewer, xvfb_run, models = sys.argv[1], sys.argv[2], sys.argv[3]
W, H = 1280, 720
SOLVERS = ["mujoco", "ccp-pgs", "admm", "native"]
# title-bar colors of panes 1-4 (viewer_ui.c, kPaneRgb), as 8-bit values
PANE_RGB = [(250, 158, 56), (92, 194, 255), (128, 224, 102), (242, 115, 204)]
failures = 0
if not os.access(xvfb_run, os.X_OK):
    print("FAIL  xvfb-run not found ('%s'): install xvfb and xauth (scripts/setup.sh does) to "
          "test acs-viewer" % xvfb_run)
    sys.exit(1)


def check(cond, what):
    global failures
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures += 1


def run_viewer(args, timeout=60):
    # xvfb-run -a picks a free display number, which a test running beside this one can take
    # first (then Xvfb fails to start and xvfb-run exits 1 before the viewer runs): try again
    cmd = [xvfb_run, "-a", "-s", "-screen 0 1920x1080x24", viewer] + args
    for _ in range(3):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if "xvfb-run: error" not in proc.stderr:
            break
    return proc


def read_png(path):
    """Decode an 8-bit RGB or RGBA PNG: (width, height, rows of bytes, 3 per pixel)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "PNG signature"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) == crc, "CRC of chunk %s" % kind
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, "8-bit RGB(A)"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    raw = zlib.decompress(idat)   # checks the zlib stream and its Adler-32
    stride = width * bpp
    assert len(raw) == height * (stride + 1), "decompressed size"
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            else:
                assert ftype == 0, "filter type %d" % ftype
        rows.append(line)
        prev = line
    if bpp == 4:
        rows = [bytearray(b for i, b in enumerate(r) if i % 4 != 3) for r in rows]
    return width, height, rows


def pixel(rows, x, y):
    return tuple(rows[y][3 * x:3 * x + 3])


def region(rows, left, top, right, bottom):
    """Bytes of the pixels in [left, right) x [top, bottom) (image coordinates, y down)."""
    return b"".join(bytes(rows[y][3 * left:3 * right]) for y in range(top, bottom))


def variance(values):
    n = len(values)
    mean = sum(values) / n
    return sum((v - mean) ** 2 for v in values) / n


def mean_abs_diff(a, b):
    return sum(abs(p - q) for p, q in zip(a, b)) / len(a)


with tempfile.TemporaryDirectory() as tmp:
    png = os.path.join(tmp, "viewer.png")
    model = os.path.join(models, "stack_ratio.xml")
    proc = run_viewer([model, "--solvers", ",".join(SOLVERS), "--width", str(W), "--height",
                       str(H), "--frames", "120", "--screenshot", png, "--quality", "low"])
    print(proc.stdout + proc.stderr)
    check(proc.returncode == 0, "viewer exits 0 (got %d)" % proc.returncode)
    check("frames in" in proc.stdout and "real time" in proc.stdout, "final line: fps, real time")
    if not os.path.exists(png):
        check(False, "PNG written")
        sys.exit(1)
    w, h, rows = read_png(png)
    check((w, h) == (W, H), "PNG size %d x %d equals the window size" % (w, h))

    # not blank: this frame's luminance variance is ~3000; a window left at its clear color has 0,
    # and the viewer's window without a model (background and text only) 221
    lum = [sum(rows[y][x:x + 3]) // 3 for y in range(0, h, 4) for x in range(0, 3 * w, 12)]
    check(variance(lum) > 1000, "not blank (luminance variance %.0f > 1000)" % variance(lum))

    # panes: each title bar is a block of rows holding a long run of its pane's exact color
    # (figure lines share the colors but are 2 px thick; a bar is a text line high, 26 px here)
    bars = []
    for rgb in PANE_RGB:
        pattern = bytes(rgb) * 150   # 150 px: shorter than a pane (> 300 px), longer than text
        hits = {}
        for y in range(h):
            x = rows[y].find(pattern)
            while x >= 0 and x % 3:
                x = rows[y].find(pattern, x + 1)
            if x >= 0:
                hits[y] = x // 3
        block, best = [], []
        for y in range(h + 1):
            if y in hits:
                block.append(y)
            else:
                best, block = (block if len(block) > len(best) else best), []
        # at least 6 rows even if a long label broke the runs of its text rows: the padding
        # above and below the text is 4 px each; a flat figure line makes at most 3
        ok = len(best) >= 6
        if ok:
            y0, x0 = best[0], hits[best[0]]
            x1 = x0
            while x1 < w and pixel(rows, x1, y0) == rgb:
                x1 += 1
            bars.append((x0, y0, x1 - x0))
        else:
            bars.append(None)
        check(ok, "title bar of color %s found (%d rows)" % (rgb, len(best)))
    if None in bars:
        sys.exit(1)
    lefts = [b[0] for b in bars]
    tops = [b[1] for b in bars]
    widths = [b[2] for b in bars]
    # 2 x 2 grid: panes 1 and 3 share a column, 2 and 4 another; 1 and 2 a row, 3 and 4 another
    # (within 3 px: the outline of the current pane 1)
    check(abs(lefts[0] - lefts[2]) <= 3 and abs(lefts[1] - lefts[3]) <= 3 and
          lefts[1] - lefts[0] > W / 4, "two columns of panes at x = %s" % lefts)
    check(abs(tops[0] - tops[1]) <= 3 and abs(tops[2] - tops[3]) <= 3 and
          tops[2] - tops[0] > H / 4, "two rows of panes at y = %s" % tops)
    # equal panes, each at least a quarter of the window wide (the figures take the rest)
    check(max(widths) - min(widths) <= 6 and min(widths) > W / 4,
          "pane widths %s equal and > %d" % (widths, W // 4))

    # the scene region of each pane: below the title bar and the numbers (top 35% of the pane),
    # the middle half of its width; the stack of boxes stands there
    pitch = tops[2] - tops[0]
    col_w = lefts[1] - lefts[0]
    scenes = []
    for i in range(4):
        left, top = lefts[i], tops[i]   # the bar (and the outline) start at the pane's corner
        scenes.append(region(rows, left + col_w // 4, top + int(0.35 * pitch),
                             left + 3 * col_w // 4, top + pitch - 12))
    for i in range(4):
        v = variance(list(scenes[i][::3]))
        # the boxes and contact points (variance ~2000 here) against the floor's shading gradient
        # alone (~15 in a floor-only strip): a pane that rendered no bodies stays below 100
        check(v > 100, "pane %d (%s) shows the scene (variance %.0f > 100)"
              % (i + 1, SOLVERS[i], v))
    d = {(i, j): mean_abs_diff(scenes[i], scenes[j]) for i in range(4) for j in range(i + 1, 4)}
    for (i, j), v in sorted(d.items()):
        print("      mean |pixel difference| %s vs %s: %.2f" % (SOLVERS[i], SOLVERS[j], v))
    # identical states, identical pixels: native takes bit-identical steps to plain mj_step and
    # the panes have the same size, so the renderer draws the same image, up to rounding: Mesa's
    # llvmpipe rasterizes relative to its 64-pixel tiles, so the same image at another offset
    # can differ by a level or two in a handful of pixels
    nbad = sum(abs(p - q) > 0 for p, q in zip(scenes[0], scenes[3]))
    dmax = max(abs(p - q) for p, q in zip(scenes[0], scenes[3]))
    check(dmax <= 3 and nbad < 0.001 * len(scenes[0]),
          "mujoco and native panes are identical up to rasterization rounding (max %d levels, "
          "%d values differ)" % (dmax, nbad))
    # different states, different pixels: the boxes stand 5 cm lower (mujoco) or lie toppled
    # (ccp-pgs, whose relaxed law takes no subspace step) where admm's stand, tens of pixels in a
    # pane ~350 px high; 2 levels on average over the region is far above rendering noise (0, as
    # the identical pair shows). pgs, since its subspace step goes on past the bounds that cut
    # it short, holds the stack as admm does (1.1 levels apart)
    for i, j in [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]:
        check(d[(i, j)] > 2, "%s and %s panes differ (%.2f > 2)"
              % (SOLVERS[i], SOLVERS[j], d[(i, j)]))

    # error paths (no window for command-line errors)
    proc = run_viewer([model, "--solvers", "mujoco,pgss", "--frames", "1"])
    check(proc.returncode == 2 and "unknown solver 'pgss'" in proc.stderr and
          "valid: mujoco, native, pgs, admm" in proc.stderr,
          "unknown solver: exit 2 and the valid names")
    proc = run_viewer([model, "--solvers", "mujoco,pgs,admm,raisim,native,pgs,admm",
                       "--frames", "1"])
    check(proc.returncode == 2 and "at most 6" in proc.stderr, "more than 6 panes: exit 2")

    # a model that fails to load: MuJoCo's error, the window still renders and is written
    bad = os.path.join(tmp, "bad.xml")
    open(bad, "w").write("<mujoco><worldbody><geom type='sphere'/></worldbody></mujoco>")
    png2 = os.path.join(tmp, "bad.png")
    proc = run_viewer([bad, "--frames", "3", "--screenshot", png2, "--width", "640",
                       "--height", "360"])
    check(proc.returncode == 1 and "could not load" in proc.stderr and "size" in proc.stderr,
          "bad model: exit 1 with MuJoCo's error (%s)" % proc.stderr.strip().splitlines()[-1:])
    check(os.path.exists(png2) and read_png(png2)[:2] == (640, 360), "bad model: window written")
    proc = run_viewer([os.path.join(tmp, "missing.xml"), "--frames", "2"])
    check(proc.returncode == 1 and "could not load" in proc.stderr,
          "missing file: exit 1 (%s)" % proc.stderr.strip().splitlines()[-1:])

    # a model acs refuses for its solvers (RK4 with sleep): its acs panes show the error and do
    # not step, mujoco steps
    rk4 = os.path.join(tmp, "rk4.xml")
    open(rk4, "w").write(open(model).read().replace(
        'cone="elliptic"/>', 'cone="elliptic" integrator="RK4"><flag sleep="enable"/></option>'))
    proc = run_viewer([rk4, "--solvers", "mujoco,pgs", "--frames", "30"])
    check(proc.returncode == 0 and "pane 2 (pgs)" in proc.stderr and "sleep" in proc.stderr and
          "simulated 0.500 s" in proc.stdout, "RK4 and sleep: pgs pane refused, viewer runs")

print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
