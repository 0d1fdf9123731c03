#!/usr/bin/python3
"""Checkpoint/restart: a run stopped (or killed) mid-way and continued with --restart must end
with the same output file as a run that went through, bit for bit: every dataset (snapshots of
all six components at the last step, probe series, DFT sums, flux spectra), every attribute
(frame labels included) and the XDMF sidecar.

usage: restart.py YEE DECK WORKDIR MODE [MPIEXEC...]

MODE
  term      SIGTERM after step 130 (YEE_SIGNAL_AT_STEP): checkpoint, exit 3; restart; compare
  kill      SIGKILL after step 130: the interval checkpoint of step 120 is in force and the
            output file, flushed then, must reopen; restart; compare
  usr1      SIGUSR1 after step 70: checkpoint and go on to the end (same file as the reference);
            then restart from step 70 over the finished file: still the same file
  mpi       as term on 2 ranks (MPIEXEC), the signal on rank 1 only: the ranks must agree on
            the step; a restart on 1 rank must be refused, naming the rank counts
  gpu       as term with --backend cuda (exit 77 without a CUDA device)
  mismatch  restarts that must be refused with a clear message: another deck (--set), a
            missing or corrupted checkpoint, a missing output file
Prints PASS/FAIL lines; exit 0 when every check passes.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

import h5py
import numpy as np

yee, deck, work, mode = sys.argv[1:5]
mpiexec = sys.argv[5:]
# the run's name: its files are <name>.h5, <name>.ckpt, ...
NAME = re.search(r'name\s*=\s*"([^"]+)"', open(deck).read()).group(1)
failures = 0


def check(ok, what, detail=""):
    global failures
    print(f"{'PASS' if ok else 'FAIL'} {mode}: {what}{(' (' + detail + ')') if detail else ''}")
    failures += 0 if ok else 1
    return ok


def run(out, *extra, env=None, ranks=1, backend="cpu"):
    """yee run DECK --out OUT ...; returns (exit code, stdout + stderr)."""
    cmd = [yee, "run", deck, "--out", out, "--backend", backend] + list(extra)
    e = dict(os.environ)
    e.update(env or {})
    if ranks > 1:
        fwd = []
        for k in (env or {}):
            fwd += ["-x", k]
        cmd = mpiexec + fwd + ["-np", str(ranks)] + cmd
    p = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def attrs(obj):
    out = {}
    for k, v in obj.attrs.items():
        out[k] = v.tobytes() if isinstance(v, np.ndarray) else v
    return out


def same_files(ref_dir, other_dir, what):
    """Every dataset and attribute of <name>.h5 and the .xmf equal, bit for bit."""
    ok = True
    with h5py.File(f"{ref_dir}/{NAME}.h5", "r") as a, h5py.File(f"{other_dir}/{NAME}.h5", "r") as b:
        names_a, names_b = [], []
        a.visit(names_a.append)
        b.visit(names_b.append)
        if sorted(names_a) != sorted(names_b):
            ok = check(False, f"{what}: same objects",
                       f"only in reference {sorted(set(names_a) - set(names_b))}, only in "
                       f"restarted {sorted(set(names_b) - set(names_a))}")
        ndata = 0
        for name in ["/"] + sorted(set(names_a) & set(names_b)):
            oa, ob = a[name], b[name]
            if attrs(oa) != attrs(ob):
                ok = check(False, f"{what}: attributes of {name}")
            if isinstance(oa, h5py.Dataset):
                da, db = oa[...], ob[...]
                ndata += 1
                differ = -1 if da.shape != db.shape else int(
                    np.count_nonzero(da.view(np.uint8) != db.view(np.uint8)))
                if differ:
                    ok = check(False, f"{what}: {name} bit for bit", f"differing bytes={differ}")
        peak = float(np.abs(a["snapshots/all/Ez"][-1]).max())
        ok = check(ok and ndata > 10 and peak > 0, f"{what}: {ndata} datasets and all "
                   f"attributes identical (tol=0, final max|Ez|={peak:.3g})") and ok
    xa = open(f"{ref_dir}/{NAME}.xmf").read()
    xb = open(f"{other_dir}/{NAME}.xmf").read()
    check(xa == xb, f"{what}: XDMF sidecar identical")
    return ok


def manifest_step(path):
    m = re.search(r"^step (\d+)$", open(path).read(), re.M)
    return int(m.group(1)) if m else -1


def leftover_files(d, step, ranks):
    """Only the checkpoint in force: its manifest and rank files, no .tmp, no older steps."""
    names = sorted(os.path.basename(p) for p in glob.glob(f"{d}/{NAME}.ckpt*"))
    want = [f"{NAME}.ckpt"] + [f"{NAME}.ckpt.{step:08d}.r{r}" for r in range(ranks)]
    check(names == sorted(want), f"checkpoint files are exactly {want}", f"found {names}")


def reference(ranks=1, backend="cpu"):
    ref = f"{work}/ref"
    rc, log = run(ref, ranks=ranks, backend=backend)
    check(rc == 0, "uninterrupted reference run", f"exit {rc}" if rc else "")
    if rc:
        print(log)
        sys.exit(1)
    return ref


def stopped_and_restarted(ranks=1, backend="cpu", sig_rank=None):
    ref = reference(ranks, backend)
    b = f"{work}/stopped"
    env = {"YEE_SIGNAL_AT_STEP": "130"}
    if sig_rank is not None:
        env["YEE_SIGNAL_RANK"] = str(sig_rank)
    rc, log = run(b, env=env, ranks=ranks, backend=backend)
    # one rank acts at once; several agree after the next advance call (solver/restart.c
    # yee_poll_signals): one step later through the halo, up to 16 with fused steps
    m = re.search(r"stopped by SIGTERM at step (\d+) of 200", log)
    at = int(m.group(1)) if m else -1
    ok_at = at == 130 if ranks == 1 else 130 < at <= 146
    check(rc == 3 and ok_at and "--restart" in log,
          f"SIGTERM after step 130: checkpoint at step {at}, exit 3", f"exit {rc}")
    if rc != 3:
        print(log)
    check(manifest_step(f"{b}/{NAME}.ckpt") == at, f"manifest names step {at}")
    leftover_files(b, at, ranks)
    rc, log = run(b, "--restart", f"{b}/{NAME}.ckpt", ranks=ranks, backend=backend)
    check(rc == 0 and f"restart from {b}/{NAME}.ckpt: step {at} of 200" in log,
          "restart runs to the end", f"exit {rc}")
    if rc:
        print(log)
    same_files(ref, b, "stopped + restarted vs uninterrupted")
    return b


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

if mode == "term":
    stopped_and_restarted()

elif mode == "gpu":
    info = subprocess.run([yee, "info"], capture_output=True, text=True).stdout
    m = re.search(r"^cuda\s+(\d+) device", info, re.M)
    if not m or int(m.group(1)) < 1:
        print("SKIP gpu: no CUDA backend or device")
        sys.exit(77)
    stopped_and_restarted(backend="cuda")

elif mode == "mpi":
    b = stopped_and_restarted(ranks=2, sig_rank=1)
    # the restarted run's own checkpoint (step 180, 2 ranks) on 1 rank: refused, saying how
    rc, log = run(b, "--restart", f"{b}/{NAME}.ckpt")
    check(rc == 2 and "belongs to another run" in log and
          "ranks: written by 2 MPI ranks" in log and "mpirun -np 2" in log,
          "2-rank checkpoint refused on 1 rank", log.strip().splitlines()[-1])

elif mode == "kill":
    ref = reference()
    b = f"{work}/killed"
    rc, log = run(b, env={"YEE_SIGNAL_AT_STEP": "130:KILL"})
    check(rc == -9, "SIGKILL after step 130", f"exit {rc}")
    check(manifest_step(f"{b}/{NAME}.ckpt") == 120, "the interval checkpoint of step 120 is in force")
    leftover_files(b, 120, 1)
    rc, log = run(b, "--restart", b)  # the directory stands for <dir>/<name>.ckpt
    check(rc == 0 and "step 120 of 200" in log, "restart from step 120", f"exit {rc}")
    if rc:
        print(log)
    same_files(ref, b, "killed + restarted vs uninterrupted")

elif mode == "usr1":
    ref = reference()
    b = f"{work}/usr1"
    rc, log = run(b, "--set", "checkpoint.interval=0", env={"YEE_SIGNAL_AT_STEP": "70:USR1"})
    check(rc == 0 and "checkpoint at step 70:" in log and log.count("checkpoint at") == 1,
          "SIGUSR1 after step 70: one checkpoint, run goes on to the end", f"exit {rc}")
    same_files(ref, b, "run with a SIGUSR1 checkpoint vs without")
    rc, log = run(b, "--set", "checkpoint.interval=0", "--restart", f"{b}/{NAME}.ckpt")
    check(rc == 0 and "step 70 of 200" in log, "restart from step 70 over the finished file",
          f"exit {rc}")
    if rc:
        print(log)
    same_files(ref, b, "restarted over a finished file vs uninterrupted")

elif mode == "mismatch":
    b = f"{work}/m"
    rc, log = run(b, env={"YEE_SIGNAL_AT_STEP": "50"})
    check(rc == 3, "checkpoint at step 50", f"exit {rc}")
    ck = f"{b}/{NAME}.ckpt"
    rc, log = run(b, "--set", "simulation.steps=300", "--restart", ck)
    check(rc == 2 and f"cannot restart from '{ck}' (step 50): it belongs to another run" in log
          and f"deck: written for run '{NAME}'" in log and "--set options changed" in log and
          "steps: a run of 200 steps, this one 300" in log,
          "another deck (--set simulation.steps=300) refused, naming what differs",
          log.strip().splitlines()[-1])
    rc, log = run(b, "--restart", f"{b}/nothing.ckpt")
    check(rc == 1 and "cannot read checkpoint" in log and "nothing.ckpt" in log,
          "missing checkpoint refused", log.strip().splitlines()[-1])
    rc, log = run(f"{work}/elsewhere", "--restart", ck)
    check(rc == 1 and "keep that file and give the same --out" in log,
          "missing output file refused", log.strip().splitlines()[-1])
    rank_file = f"{b}/{NAME}.ckpt.{50:08d}.r0"
    data = bytearray(open(rank_file, "rb").read())
    data[len(data) // 2] ^= 0x40
    open(rank_file, "wb").write(bytes(data))
    rc, log = run(b, "--restart", ck)
    check(rc == 1 and "is corrupt (checksum" in log, "corrupted checkpoint refused",
          log.strip().splitlines()[-1])
    open(rank_file, "wb").write(bytes(data[: len(data) // 3]))
    rc, log = run(b, "--restart", ck)
    check(rc == 1 and "truncated" in log, "truncated checkpoint refused",
          log.strip().splitlines()[-1])

else:
    print(f"unknown mode {mode}")
    sys.exit(2)

sys.exit(1 if failures else 0)
