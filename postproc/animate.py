#!/usr/bin/env python3
"""animate.py -- every written frame of a yee snapshot monitor as an animated GIF (or MP4).

One plane (a plane monitor, or --slice of a 3D monitor), one component, a colour scale fixed over
all frames (so amplitudes compare between frames), the time in fs in the title; the same overlays
as plot_snapshot.py (--eps-contour, CPML faces). GIF is written with Pillow (always available with
matplotlib); MP4 needs the ffmpeg program and fails with a clear message without it.
Doesn't: interpolate in time, or animate probes.

Example: animate.py out/dipole.h5 --monitor xz --component Ez --out xz.gif --fps 10
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yee_h5  # noqa: E402
from yee_h5 import YeeError  # noqa: E402
import plot_snapshot as ps  # noqa: E402


def main(argv=None, prog="animate.py"):
    """The command; prog is the name its usage and errors give (the installed command passes
    its own, e.g. yee-plot-spectrum: the name the user typed)."""
    p = argparse.ArgumentParser(
        prog=prog,
        description="Animate all written frames of a yee snapshot monitor to a GIF or MP4 with "
                    "a fixed colour scale.")
    ps.add_plane_args(p)
    p.add_argument("--out", default=None,
                   help="movie file, .gif or .mp4 (default <run>_<monitor>_<component>.gif "
                        "next to RUN.h5)")
    p.add_argument("--fps", type=float, default=10.0, help="frames per second (default 10)")
    p.set_defaults(size=(640, 480))
    args = p.parse_args(argv)
    if args.fps <= 0:
        p.error("--fps must be > 0")
    if not 0.0 < args.percentile <= 100.0:
        p.error("--percentile must be in (0, 100]")
    slice_spec = yee_h5.parse_slice(args.slice)

    with yee_h5.Run(args.run) as run:
        data, coords, steps, times = run.frames(args.monitor, args.component)
        comp = run.components(args.monitor)[0] if args.component is None else \
            [c for c in run.components(args.monitor) if c.lower() == args.component.lower()][0]
        out = args.out or os.path.join(os.path.dirname(os.path.abspath(args.run)), "%s_%s_%s.gif"
                                       % (run.name, args.monitor, comp))
        ext = os.path.splitext(out)[1].lower()
        if ext not in (".gif", ".mp4"):
            raise YeeError("cannot tell the movie format of '%s': use a .gif or .mp4 name" % out)
        if ext == ".mp4" and shutil.which("ffmpeg") is None:
            raise YeeError("MP4 output needs the ffmpeg program, which is not on PATH (Debian: "
                           "apt-get install ffmpeg); write a GIF instead, e.g. --out %s"
                           % (os.path.splitext(out)[0] + ".gif"))

        def frame_at(k):
            return yee_h5.Frame(data[k], coords, float(times[k]), int(steps[k]), args.monitor,
                                comp, k)

        planes = [yee_h5.frame_plane(frame_at(k), slice_spec) for k in range(len(data))]
        import numpy as np
        vlim = ps.color_limits(np.stack([pl.values for pl in planes]), args.symmetric, args.vmax,
                               args.percentile)
        fig, ax = ps.new_figure(args)
        im = ps.draw_plane(fig, ax, run, frame_at(0), planes[0], args, vlim)
        title = ax.set_title(ps.plane_title(run, frame_at(0), planes[0]), fontsize=10)

        def update(k):
            im.set_data(planes[k].values)
            title.set_text(ps.plane_title(run, frame_at(k), planes[k]))
            return im, title

        from matplotlib import animation
        anim = animation.FuncAnimation(fig, update, frames=len(planes), blit=False)
        writer = (animation.PillowWriter(fps=args.fps) if ext == ".gif"
                  else animation.FFMpegWriter(fps=args.fps))
        try:
            anim.save(out, writer=writer, dpi=args.dpi)
        except (OSError, ValueError, RuntimeError) as e:
            raise YeeError("cannot write '%s': %s" % (out, e))
    print("wrote %s (%d frames)" % (out, len(planes)))
    return 0


if __name__ == "__main__":
    yee_h5.run_main("animate.py", main)
