#!/usr/bin/env python3
"""Crashes and faults: what a run leaves behind when it is killed, stopped, loses a rank, blows
up or fills the disk, and output for any number of frames (tests/crash.cmake).

usage: crash.py YEE DECK_DIR WORK_DIR MODE [MPIEXEC ... (run on 2 ranks)]
MODE is kill, term, rankdeath (2 ranks only), nan, diskfull or frames:

kill      crash.cfg killed by SIGKILL (YEE_SIGNAL_AT_STEP=N:KILL) after step 65 with a flush after
          every frame (output.flush_seconds = 0): the file opens, frames_written and the labels say
          exactly the frames written before the kill, and each is bit for bit the frame of an
          uninterrupted run; `yee export-vtk` and postproc/yee_h5.py read it. With the default
          flush policy (the first frame always flushed) at least one frame survives; killed before
          any frame, the file still opens (it was flushed after creation) with 0 frames.
term      SIGTERM after step 65 (as Slurm's time limit sends it): exit 3 and a checkpoint, the
          file closed with the frames up to the step it stopped at (65 on one rank, the end of
          the next stretch of steps on two); `--restart` from the checkpoint ends with exit 0
          and every frame and label equal to an uninterrupted run's. On one rank also SIGTERM
          after step 70, a frame step (the frame is written with the checkpoint), and during a
          long setup (slow_setup.cfg): exit 3 at once, not after setup.
rankdeath rank 1 killed by SIGKILL after step 65: the job ends (not hangs) within 60 s with a
          non-zero status, and the file keeps the frames flushed before, right.
nan       a NaN enters the fields after step 25 (YEE_NAN_AT_STEP, as from a NaN in a voxel file):
          exit 1 with "the fields blew up" naming the step of the next check (40), no signal,
          and the file opens with the frames before that step, labelled.
diskfull  crash.cfg writing into a 256 KiB tmpfs (exit 77 when mount is not permitted): refused
          before the first step with the size it needs (the file's blocks are reserved when it
          is created), exit 1, the file opens; without the reservation (YEE_H5_NO_RESERVE=1, as
          on a file system that cannot reserve) the disk fills part way: exit 1 with an error
          naming the file, no signal, and the frames flushed before are readable and right; on
          a 96 KiB tmpfs the run refuses to create the file, exit 1.
frames    frames.cfg: 10 000 frames of one node; the run succeeds, labels are datasets of 10 000
          steps/times, the .xmf lists 10 000 frames, the readers read the last one.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import h5py
import numpy as np

YEE, DECKS, WORK, MODE = sys.argv[1:5]
MPI = sys.argv[5:]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "postproc"))
import yee_h5  # noqa: E402

FAILED = []


def check(name, ok, detail=""):
    print("%s %s %s" % ("PASS" if ok else "FAIL", name, detail))
    if not ok:
        FAILED.append(name)


def run(deck, out, env=None, expect=None, args=(), timeout=None):
    """Run yee on deck into out; returns (exit code, stderr text)."""
    cmd = list(MPI) + (["-np", "2"] if MPI else []) + [YEE, "run", os.path.join(DECKS, deck),
                                                       "--out", out, "--quiet"] + list(args)
    e = dict(os.environ, OMP_NUM_THREADS="1")
    e.update(env or {})
    p = subprocess.run(cmd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout)
    if expect is not None and p.returncode != expect:
        print(p.stdout, p.stderr)
    return p.returncode, p.stderr


def labels(f, mon, comp):
    g = f["/snapshot_labels/%s/%s" % (mon, comp)]
    return g["steps"][:], g["times"][:], g["times_fs"][:]


def compare_frames(path, ref_path, name, min_frames):
    """Every frame the killed/failed file says it holds equals the reference run's frame."""
    total = 0
    with h5py.File(path, "r") as f, h5py.File(ref_path, "r") as r:
        for mon in r["/snapshots"]:
            for comp in r["/snapshots"][mon]:
                d, rd = f["/snapshots/%s/%s" % (mon, comp)], r["/snapshots/%s/%s" % (mon, comp)]
                nw = int(d.attrs["frames_written"])
                steps, times, tfs = labels(f, mon, comp)
                rsteps, rtimes, rtfs = labels(r, mon, comp)
                total += nw
                where = "%s %s/%s" % (name, mon, comp)
                check(where + " labels", np.array_equal(steps[:nw], rsteps[:nw]) and
                      np.array_equal(times[:nw], rtimes[:nw]) and
                      np.array_equal(tfs[:nw], rtfs[:nw]) and bool(np.all(steps[:nw] >= 0)),
                      "frames_written=%d steps=%s" % (nw, list(steps[:nw])))
                same = all(np.array_equal(d[k], rd[k]) for k in range(nw))
                check(where + " frames bit for bit", same)
    check(name + " frames kept", total >= min_frames, "%d frames (want >= %d)"
          % (total, min_frames))
    return total


def read_with_tools(path, name, out):
    """yee export-vtk and postproc/yee_h5.py read the file."""
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.run([YEE, "export-vtk", path, "--all", "--out", out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with h5py.File(path, "r") as f:
        want = sum(int(f["/snapshots/%s/%s" % (m, c)].attrs["frames_written"])
                   for m in f["/snapshots"] for c in f["/snapshots"][m])
    nvtk = len([n for n in os.listdir(out) if n.endswith(".vtk")]) if os.path.isdir(out) else 0
    check(name + " export-vtk", p.returncode == 0 and nvtk == want,
          "rc=%d, %d files, want %d: %s" % (p.returncode, nvtk, want, p.stdout.strip()[-300:]))
    run_file = yee_h5.Run(path)
    for mon in run_file.snapshots():
        nw, steps, times = run_file.frames_info(mon)
        if nw:
            fr = run_file.frame(mon)
            check(name + " yee_h5.py " + mon, fr.step == steps[-1] and np.isfinite(fr.time_fs),
                  "last step %s" % fr.step)
    run_file.close()


def mode_kill():
    ref = os.path.join(WORK, "ref")
    rc, err = run("crash.cfg", ref, expect=0)
    check("reference run", rc == 0, err[-300:])
    ref_h5 = os.path.join(ref, "crash.h5")

    # killed after step 65, a flush after every frame: frames 10..60 (xy) and 30, 60 (vol)
    out = os.path.join(WORK, "killed")
    rc, err = run("crash.cfg", out, {"YEE_SIGNAL_AT_STEP": "65:KILL"},
             args=["--set", "output.flush_seconds=0"])
    check("killed run died", rc != 0, "rc=%d" % rc)
    path = os.path.join(out, "crash.h5")
    with h5py.File(path, "r") as f:
        fw = {m + "/" + c: int(f["/snapshots/%s/%s" % (m, c)].attrs["frames_written"])
              for m in f["/snapshots"] for c in f["/snapshots"][m]}
        steps_xy = list(labels(f, "xy", "Ez")[0])
    check("killed frames_written", fw == {"xy/Ez": 6, "xy/Hx": 6, "vol/Ex": 2, "vol/Ez": 2},
          str(fw))
    check("killed labels of unwritten frames", steps_xy == [10, 20, 30, 40, 50, 60] + [-1] * 6,
          str(steps_xy))
    compare_frames(path, ref_h5, "killed", 16)
    read_with_tools(path, "killed", os.path.join(WORK, "killed_vtk"))

    # the default policy: the first frame is flushed at once
    out = os.path.join(WORK, "killed_default")
    rc, _ = run("crash.cfg", out, {"YEE_SIGNAL_AT_STEP": "65:KILL"})
    check("killed (default flush) run died", rc != 0, "rc=%d" % rc)
    compare_frames(os.path.join(out, "crash.h5"), ref_h5, "killed default", 1)

    # before any frame: the file was flushed after creation
    out = os.path.join(WORK, "killed_early")
    rc, _ = run("crash.cfg", out, {"YEE_SIGNAL_AT_STEP": "3:KILL"})
    try:
        with h5py.File(os.path.join(out, "crash.h5"), "r") as f:
            n = sum(int(f["/snapshots/%s/%s" % (m, c)].attrs["frames_written"])
                    for m in f["/snapshots"] for c in f["/snapshots"][m])
            ok, detail = n == 0 and f.attrs["name"] == "crash", "%d frames" % n
    except OSError as e:
        ok, detail = False, str(e)
    check("killed before the first frame: file opens", rc != 0 and ok, detail)


def frames_total(path):
    with h5py.File(path, "r") as f:
        return sum(int(f["/snapshots/%s/%s" % (m, c)].attrs["frames_written"])
                   for m in f["/snapshots"] for c in f["/snapshots"][m])


def term_at(ref, step, name):
    """SIGTERM after `step`: exit 3, a checkpoint, the file closed with every frame up to the
    step the run stopped at (one rank: that step; two agree at the end of the next stretch of
    fused steps, at most 16 on); the restart ends with every frame of the reference."""
    out = os.path.join(WORK, name)
    rc, err = run("crash.cfg", out, {"YEE_SIGNAL_AT_STEP": str(step)})
    check(name + ": exit 3", rc == 3, "rc=%d %s" % (rc, err[-300:]))
    m = re.search(r"stopped by SIGTERM at step (\d+)", err)
    at = int(m.group(1)) if m else -1
    check(name + ": stopped at step %d" % at, at == step if not MPI else step < at <= step + 16)
    ckpt = os.path.join(out, "crash.ckpt")
    check(name + ": checkpoint written", os.path.exists(ckpt))
    path = os.path.join(out, "crash.h5")
    want = 2 * (at // 10) + 2 * (at // 30)  # xy every 10 steps, vol every 30, two components
    check(name + ": file closed with the frames to step %d" % at, frames_total(path) == want,
          "%d frames, want %d" % (frames_total(path), want))
    compare_frames(path, os.path.join(ref, "crash.h5"), name, want)
    rc, err = run("crash.cfg", out, args=["--restart", ckpt])
    check(name + " restart: exit 0", rc == 0, "rc=%d %s" % (rc, err[-300:]))
    n = compare_frames(path, os.path.join(ref, "crash.h5"), name + " restarted", 12 + 12 + 4 + 4)
    check(name + " restart: every frame", n == 32, "%d frames" % n)


def mode_term():
    ref = os.path.join(WORK, "ref")
    rc, err = run("crash.cfg", ref, expect=0)
    check("reference run", rc == 0, err[-300:])
    term_at(ref, 65, "SIGTERM")
    if not MPI:
        # at a frame step: that frame is still on its way when the checkpoint is written
        term_at(ref, 70, "SIGTERM at a frame step")
        term_during_setup()


def term_during_setup():
    """SIGTERM while the run is still rasterizing: it stops at once (exit 3: stopped, to be run
    again), not after setup."""
    cmd = [YEE, "run", os.path.join(DECKS, "slow_setup.cfg"), "--out",
           os.path.join(WORK, "slow"), "--quiet"]
    p = subprocess.Popen(cmd, env=dict(os.environ, OMP_NUM_THREADS="1"),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        _, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    took = time.monotonic() - t0
    check("SIGTERM during setup: stops at once", p.returncode == 3 and took < 5 and
          "before the first step" in err, "rc=%s after %.1f s: %s" % (p.returncode, took,
                                                                   err.strip()[-200:]))


def mode_rankdeath():
    if not MPI:
        print("SKIP: rank death needs 2 ranks")
        sys.exit(77)
    ref = os.path.join(WORK, "ref")
    rc, err = run("crash.cfg", ref, expect=0)
    check("reference run", rc == 0, err[-300:])
    out = os.path.join(WORK, "rankdeath")
    t0 = time.monotonic()
    try:
        rc, err = run("crash.cfg", out, {"YEE_SIGNAL_AT_STEP": "65:KILL", "YEE_SIGNAL_RANK": "1"},
                      args=["--set", "output.flush_seconds=0"], timeout=60)
    except subprocess.TimeoutExpired:
        rc, err = None, "timed out"
    took = time.monotonic() - t0
    check("rank 1 killed: the job ends with an error", rc not in (None, 0),
          "rc=%s after %.1f s" % (rc, took))
    compare_frames(os.path.join(out, "crash.h5"), os.path.join(ref, "crash.h5"), "rank death",
                   16)


def mode_nan():
    out = os.path.join(WORK, "nan")
    rc, err = run("crash.cfg", out, {"YEE_NAN_AT_STEP": "25"},
                  args=["--set", "simulation.check_interval=20"])
    msg = [line for line in err.splitlines() if "error:" in line]
    check("blow-up: exit 1, no signal", rc == 1 and "signal" not in err.lower(),
          "rc=%d %s" % (rc, err[-300:]))
    check("blow-up: named, with its step", len(msg) >= 1 and "the fields blew up" in msg[0] and
          "detected at step 40" in msg[0], " | ".join(msg))
    path = os.path.join(out, "crash.h5")
    with h5py.File(path, "r") as f:
        steps = list(labels(f, "xy", "Ez")[0])
        nw = int(f["/snapshots/xy/Ez"].attrs["frames_written"])
    # the check at step 40 stops the run before its frame: the frames are those of steps 10-30
    check("blow-up: the file opens with true labels", nw == 3 and
          steps == [10, 20, 30] + [-1] * 9, "frames_written=%d steps=%s" % (nw, steps))


def mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s" % size, "tmpfs", path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode == 0, p.stdout.strip()


def mode_diskfull():
    ref = os.path.join(WORK, "ref")
    rc, err = run("crash.cfg", ref, expect=0)
    check("reference run", rc == 0, err[-300:])
    mnt = os.path.join(WORK, "tmpfs")
    subprocess.run(["umount", mnt], stderr=subprocess.DEVNULL)
    ok, why = mount_tmpfs(mnt, "256k")
    if not ok:
        print("SKIP: cannot mount a tmpfs to fill (%s); needs root" % why)
        sys.exit(77)
    try:
        # the output does not fit: refused before the first step (blocks reserved at the start)
        rc, err = run("crash.cfg", os.path.join(mnt, "r"))
        msg = [line for line in err.splitlines() if "error:" in line]
        check("disk too small: exit 1, no signal", rc == 1 and "signal" not in err.lower(),
              "rc=%d %s" % (rc, err[-300:]))
        check("disk too small: refused with the size needed", len(msg) == 1 and
              "not enough room for the output" in msg[0] and "crash.h5" in msg[0] and
              "needs" in msg[0], " | ".join(msg))
        with h5py.File(os.path.join(mnt, "r", "crash.h5"), "r") as f:
            n = sum(int(f["/snapshots/%s/%s" % (m, c)].attrs["frames_written"])
                    for m in f["/snapshots"] for c in f["/snapshots"][m])
        check("disk too small: the file opens, no frame", n == 0, "%d frames" % n)
        shutil.rmtree(os.path.join(mnt, "r"))

        # full part way (no reservation, as on a file system that cannot reserve blocks): frames
        # flushed before the failure stay readable and right
        rc, err = run("crash.cfg", os.path.join(mnt, "o"), {"YEE_H5_NO_RESERVE": "1"},
                      args=["--set", "output.flush_seconds=0"])
        msg = [line for line in err.splitlines() if "error:" in line]
        check("disk full: exit 1", rc == 1, "rc=%d" % rc)
        check("disk full: no signal", "signal" not in err.lower() and "segmentation" not in
              err.lower(), err[-500:])
        check("disk full: one clear error naming the file", len(msg) >= 1 and "crash.h5" in msg[0]
              and "no space left" in msg[0].lower(), " | ".join(msg))
        path = os.path.join(mnt, "o", "crash.h5")
        n = compare_frames(path, os.path.join(ref, "crash.h5"), "disk full", 1)
        read_with_tools(path, "disk full", os.path.join(WORK, "full_vtk"))
        print("disk full after %d frames" % n)
    finally:
        subprocess.run(["umount", mnt])
    ok, why = mount_tmpfs(mnt, "96k")
    check("mount 96k", ok, why)
    try:
        # nearly full from the start: refused before HDF5 holds the file
        rc, err = run("crash.cfg", os.path.join(mnt, "o"))
        check("nearly full disk: exit 1, no signal", rc == 1 and "signal" not in err.lower(),
              "rc=%d %s" % (rc, err[-300:]))
        check("nearly full disk: clear error", "KiB free" in err and "crash.h5" in err,
              err.strip()[-300:])
    finally:
        subprocess.run(["umount", mnt])


def mode_frames():
    out = os.path.join(WORK, "frames")
    rc, err = run("frames.cfg", out, expect=0)
    check("10000-frame run", rc == 0, err[-300:])
    path = os.path.join(out, "frames.h5")
    with h5py.File(path, "r") as f:
        d = f["/snapshots/pt/Ez"]
        steps, times, tfs = labels(f, "pt", "Ez")
        check("frames_written", int(d.attrs["frames_written"]) == 10000 and d.shape[0] == 10000,
              str(d.attrs["frames_written"]))
        check("steps", np.array_equal(steps, np.arange(1, 10001)), str(steps[-3:]))
        dt = float(f.attrs["dt"])
        check("times", np.allclose(times[1:] - times[:-1], dt) and np.all(np.isfinite(tfs)),
              str(times[-3:]))
    xmf = os.path.join(out, "frames.xmf")
    ntime = sum(1 for e in ET.parse(xmf).iter("Time")) if os.path.exists(xmf) else 0
    check("xmf has every frame", ntime == 10000, "%d <Time>" % ntime)
    p = subprocess.run([YEE, "export-vtk", path, "--step", "10000", "--out",
                        os.path.join(WORK, "frames_vtk")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check("export-vtk --step 10000", p.returncode == 0, p.stdout.strip()[-300:])
    r = yee_h5.Run(path)
    nw, st, _ = r.frames_info("pt")
    check("yee_h5.py", nw == 10000 and int(st[-1]) == 10000 and r.frame("pt").step == 10000)
    r.close()


subprocess.run(["umount", os.path.join(WORK, "tmpfs")], stderr=subprocess.DEVNULL)
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK, exist_ok=True)
{"kill": mode_kill, "term": mode_term, "rankdeath": mode_rankdeath, "nan": mode_nan,
 "diskfull": mode_diskfull, "frames": mode_frames}[MODE]()
print("%d check(s) failed: %s" % (len(FAILED), ", ".join(FAILED)) if FAILED else "all passed")
sys.exit(1 if FAILED else 0)
