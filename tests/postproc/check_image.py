"""check_image.py FILE WIDTH HEIGHT [FRAMES] -- the postproc tests' image check: FILE (PNG or
GIF) exists, is WIDTH x HEIGHT pixels, has FRAMES frames (GIF; FRAMES may be RUN.h5:/dataset for
that snapshot's frames_written) and is not blank (pixel variance > 0 in the first, middle and
last frames). Prints 'ok: ...' or a message and exits 1."""
import sys

import numpy as np
from PIL import Image


def main(path, width, height, frames=None):
    try:
        im = Image.open(path)
    except OSError as e:
        sys.exit("check_image: cannot open '%s': %s" % (path, e))
    if im.size != (int(width), int(height)):
        sys.exit("check_image: %s is %dx%d pixels, want %sx%s" % (path, *im.size, width, height))
    n = getattr(im, "n_frames", 1)
    if frames is not None and ":" in frames:
        import h5py
        run, dset = frames.split(":", 1)
        with h5py.File(run, "r") as f:
            frames = int(f[dset].attrs["frames_written"])
    if frames is not None and n != int(frames):
        sys.exit("check_image: %s has %d frames, want %s" % (path, n, frames))
    for k in sorted({0, n // 2, n - 1}):
        im.seek(k)
        px = np.asarray(im.convert("RGB"), dtype=float)
        if px.var() <= 0:
            sys.exit("check_image: frame %d of %s is blank" % (k, path))
    print("ok: %s %dx%d, %d frame(s)" % (path, im.size[0], im.size[1], n))


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    main(*sys.argv[1:])
