#!/usr/bin/python3
"""End-to-end tests of `yee sweep` (tests/sweep.cmake); each case prints PASS|FAIL sweep_<case>.

usage: check_sweep.py YEE WORKDIR CASE [MPIEXEC...]

  local  cavity.cfg with --jobs 2: job decks, markers, summary.csv against the analytic cavity
         (frequency and Q), then resumption: a rerun runs nothing, a failed and a partial job are
         rerun and the other rows stay byte for byte; --dry-run runs nothing
  crash  one job dies of SIGSEGV and one exits 1: both recorded as failed with their message, the
         sweep goes on; a rerun without the fault runs only those two
  flux   flux results from the HDF5 layout of flux monitors (fake_flux_run.sh writes it): linear
         interpolation at a wavelength and a frequency, `normalized` preferred, out of range is
         that job's failure; the deck's @include must still resolve from the job directories.
         Then real flux monitors (flux_real.cfg): each result equals the run's CSV, interpolated
  slurm  --slurm: the sbatch script's lines and its MPI plugin, then its array tasks executed
         here one by one (with a stand-in srun) and --collect building the summary; a failed
         task; resubmission; a locked job left alone (the real Slurm: tests/slurm/)
  lock   a sweep killed (SIGKILL) while its job runs, then rerun: the running job keeps its
         directory's lock and the rerun leaves it alone (pending); once it ended, a rerun finishes
  script_safety  paths with newlines (or ", \\, %) are refused for --slurm; spaces, quotes and
         $(...) are quoted and the script runs; summary.csv quotes formula-like cells
  mpi    mpirun -np 3: rank 0 hands out jobs to 2 workers; a crash under MPI; --ranks-per-job 2
         starts each job with a nested `mpirun -np 2` (logged by log_mpirun.sh)
"""
import csv
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
C_THZ = 299.792458
EPS0 = 8.8541878128e-12


class Fail(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Fail(what)


def run(cmd, env_extra=None, ok=True, cwd=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=170)
    out = r.stdout + r.stderr
    if ok is not None and (r.returncode == 0) != ok:
        raise Fail("%s exited %d (wanted %s):\n%s" % (" ".join(cmd), r.returncode,
                                                      "0" if ok else "non-zero", out))
    return out


def summary(d):
    with open(os.path.join(d, "summary.csv"), newline="") as f:
        return list(csv.DictReader(f))


def fresh(work, name):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    return d


def check_cavity_rows(rows, tol_f=0.005, tol_q=0.03):
    """The TM110 mode of the a x 0.7 um PEC cavity filled with conductivity sigma."""
    expect(len(rows) == 4, "4 rows, got %d" % len(rows))
    want = [("0.8", "200"), ("0.8", "400"), ("1", "200"), ("1", "400")]
    for i, (row, (a, s)) in enumerate(zip(rows, want)):
        expect(row["job"] == str(i + 1) and row["a"] == a and row["sigma"] == s,
               "row %d parameters %s" % (i + 1, row))
        expect(row["status"] == "ok" and row["message"] == "", "row %d status %s" % (i + 1, row))
        f = 0.5 * math.sqrt(1 / float(a) ** 2 + 1 / 0.7 ** 2) * C_THZ
        q = 2 * math.pi * f * 1e12 * EPS0 / float(s)
        got_f, got_q, got_wl = float(row["f_THz"]), float(row["Q"]), float(row["wl_um"])
        expect(abs(got_f / f - 1) < tol_f, "row %d: f %.4f THz, analytic %.4f" % (i + 1, got_f, f))
        expect(abs(got_q / q - 1) < tol_q, "row %d: Q %.3f, analytic %.3f" % (i + 1, got_q, q))
        expect(abs(got_wl * got_f / C_THZ - 1) < 1e-9, "row %d: wavelength = c / f" % (i + 1))
        expect(float(row["wall_s"]) > 0, "row %d wall time" % (i + 1))


def case_local(yee, work):
    d = fresh(work, "local")
    deck = os.path.join(HERE, "cavity.cfg")
    out = run([yee, "sweep", deck, "--out", d, "--dry-run"])
    expect("4 jobs in %s, 0 finished, 4 to run (dry run" % d in out, "dry run output:\n" + out)
    expect(not os.path.exists(os.path.join(d, "job-0001", "DONE")), "a dry run ran nothing")

    out = run([yee, "sweep", deck, "--out", d, "--jobs", "2"])
    expect("4 ok, 0 failed, 0 pending" in out and "2 at once" in out, "run output:\n" + out)
    rows = summary(d)
    check_cavity_rows(rows)
    lines = open(deck).read().count("\n")
    for j in range(1, 5):
        jd = os.path.join(d, "job-%04d" % j)
        text = open(os.path.join(jd, "deck.cfg")).read()
        expect(text.startswith("/* yee sweep job %d of 4: a = " % j), "job %d header" % j)
        expect("${" not in text and "sweep =" not in text and "parameters" not in text,
               "job %d deck resolved, sweep section removed" % j)
        expect(text.count("\n") == lines, "job %d deck keeps the line numbers" % j)
        for f in ("DONE", "run.log"):
            expect(os.path.exists(os.path.join(jd, f)), "job %d has %s" % (j, f))
        a = rows[j - 1]["a"]
        expect(os.path.exists(os.path.join(jd, "cavity_a%s.h5" % a)), "job %d HDF5 file" % j)
    expect(not [f for f in os.listdir(d) if ".tmp" in f], "no temporary files left in " + d)

    # a rerun runs nothing and rewrites the same summary
    before = open(os.path.join(d, "summary.csv")).read()
    mtime = os.path.getmtime(os.path.join(d, "job-0001", "DONE"))
    out = run([yee, "sweep", deck, "--out", d, "--jobs", "2"])
    expect("to run" not in out and "4 ok, 0 failed, 0 pending" in out, "rerun output:\n" + out)
    expect(open(os.path.join(d, "summary.csv")).read() == before, "rerun: same summary")
    expect(os.path.getmtime(os.path.join(d, "job-0001", "DONE")) == mtime, "rerun: job 1 kept")

    # job 2 failed earlier, job 3 was cut off half way (no marker, a torn HDF5 file): both rerun
    os.remove(os.path.join(d, "job-0002", "DONE"))
    with open(os.path.join(d, "job-0002", "FAILED"), "w") as f:
        f.write("status\tfailed\nwall_s\t0.1\nmessage\tsomething broke\n")
    os.remove(os.path.join(d, "job-0003", "DONE"))
    with open(os.path.join(d, "job-0003", "cavity_a1.h5"), "wb") as f:
        f.write(b"torn")
    out = run([yee, "sweep", deck, "--out", d])
    expect("2 finished earlier, 2 to run" in out and "4 ok, 0 failed" in out,
           "resume output:\n" + out)
    after = open(os.path.join(d, "summary.csv")).read().splitlines()
    expect(after[1] == before.splitlines()[1] and after[4] == before.splitlines()[4],
           "rows of finished jobs unchanged:\n%s\n%s" % (before, "\n".join(after)))
    check_cavity_rows(summary(d))


def case_crash(yee, work):
    d = fresh(work, "crash")
    deck = os.path.join(HERE, "cavity.cfg")
    env = {"YEE_SWEEP_EXE": os.path.join(HERE, "crash_job.sh"), "YEE_REAL": yee,
           "YEE_CRASH_JOB": "job-0002/", "YEE_FAIL_JOB": "job-0003/"}
    out = run([yee, "sweep", deck, "--out", d, "--jobs", "2"], env, ok=False)
    expect("2 ok, 2 failed, 0 pending" in out, "crash run output:\n" + out)
    rows = summary(d)
    expect(rows[1]["status"] == "failed" and
           rows[1]["message"] == "crashed: signal 11 (Segmentation fault); log: about to crash",
           "job 2 crashed: %s" % rows[1])
    expect(rows[2]["status"] == "failed" and
           rows[2]["message"] == "exit status 1: yee: error: simulated failure",
           "job 3 failed: %s" % rows[2])
    expect(rows[1]["f_THz"] == "" and rows[0]["status"] == "ok" and rows[3]["status"] == "ok",
           "the other jobs went on: %s" % rows)
    expect(os.path.exists(os.path.join(d, "job-0002", "FAILED")), "FAILED marker")
    out = run([yee, "sweep", deck, "--out", d])
    expect("2 finished earlier, 2 to run" in out and "4 ok, 0 failed" in out,
           "rerun output:\n" + out)
    check_cavity_rows(summary(d))


def case_flux(yee, work):
    d = fresh(work, "flux")
    env = {"YEE_SWEEP_EXE": os.path.join(HERE, "fake_flux_run.sh"),
           "YEE_TEST_PYTHON": sys.executable}
    # from another directory: the job decks' @include must not depend on the current one
    out = run([yee, "sweep", os.path.join(HERE, "flux.cfg"), "--out", d], env, ok=False, cwd="/")
    expect("3 ok, 1 failed" in out, "flux run output:\n" + out)
    rows = summary(d)
    f220 = 220.0 / C_THZ
    want = [(0.1, 0.1 / 1.55, 0.1 * f220), (0.2, 0.2 / 1.55, 0.2 * f220),
            (0.3, 0.6 / 1.55, 0.6 * f220)]  # t = 0.3: normalized = 2 t f wins over flux
    for row, (t, tr, f) in zip(rows, want):
        expect(row["status"] == "ok", "t = %g ok: %s" % (t, row))
        expect(abs(float(row["T_1550"]) - tr) < 1e-12 and abs(float(row["F_220"]) - f) < 1e-12,
               "t = %g: T_1550 %s (want %.15g), F_220 %s (want %.15g)"
               % (t, row["T_1550"], tr, row["F_220"], f))
    expect(rows[3]["status"] == "failed" and rows[3]["message"] ==
           "result 'T_1550': wavelength 1.55 um (193.414 THz) is outside the range of flux "
           "monitor 'trans' (200 to 250 THz)", "t = 0.4 out of range: %s" % rows[3])

    # real flux monitors: each result is the run's own flux CSV, linearly interpolated
    d = fresh(work, "flux_real")
    out = run([yee, "sweep", os.path.join(HERE, "flux_real.cfg"), "--out", d])
    expect("2 ok, 0 failed" in out, "real flux output:\n" + out)
    for j, row in enumerate(summary(d)):
        with open(os.path.join(d, "job-%04d" % (j + 1), "dipole_wl%s_box_flux.csv" % row["wl"]),
                  newline="") as f:
            table = sorted((float(r["frequency_thz"]), float(r["flux"]))
                           for r in csv.DictReader(f))
        for name, thz in (("P_1100", C_THZ / 1.1), ("P_280", 280.0)):
            k = max(i for i in range(len(table) - 1) if table[i][0] <= thz)
            (f0, v0), (f1, v1) = table[k], table[k + 1]
            want = v0 + (thz - f0) / (f1 - f0) * (v1 - v0)
            got = float(row[name])
            expect(abs(got - want) <= 1e-5 * abs(want) and want > 0,
                   "job %d %s: %r, the CSV interpolated gives %r" % (j + 1, name, got, want))


def case_slurm(yee, work):
    d = fresh(work, "slurm")
    deck = os.path.join(HERE, "cavity.cfg")
    stub_path = HERE + os.pathsep + os.environ["PATH"]  # the stand-in srun answers --mpi=list
    env = {"YEE_SWEEP_EXE": os.path.join(HERE, "crash_job.sh"), "YEE_REAL": yee,
           "PATH": stub_path}
    out = run([yee, "sweep", deck, "--out", d, "--slurm", "--time", "01:00:00",
               "--partition", "gpu", "--account", "proj42", "--gpus-per-job", "1"], env)
    script = os.path.join(d, "sweep.sbatch")
    expect("sbatch %s" % script in out and "--collect" in out, "slurm output:\n" + out)
    text = open(script).read()
    for line in ["#!/bin/bash", "#SBATCH --array=1-4", "#SBATCH --ntasks=1",
                 "#SBATCH --cpus-per-task=2",           # sweep.slurm.cpus
                 "#SBATCH --gres=gpu:1",                # --gpus-per-job
                 "#SBATCH --time=01:00:00",             # the flag beats the deck's 00:30:00
                 "#SBATCH --partition=gpu", "#SBATCH --account=proj42",
                 "#SBATCH --mem=2G",                    # sweep.slurm.memory
                 "#SBATCH --signal=B:TERM@120", "#SBATCH --requeue",
                 "#SBATCH --open-mode=append",
                 "#SBATCH --output=\"%s/slurm-%%A_%%a.out\"" % d,
                 "echo yee-setup",                      # sweep.slurm.setup
                 "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}",
                 "yee='%s'" % os.path.join(HERE, "crash_job.sh"),
                 "sweep='%s'" % d,
                 "dir=\"$sweep\"/job-$(printf '%04d' \"$SLURM_ARRAY_TASK_ID\")",
                 "[ -f \"$dir/DONE\" ] && { echo \"$dir is finished already\"; exit 0; }",
                 "exec 9>>\"$dir/.lock\"",
                 "# --mpi=pmix: picked from `srun --mpi=list` for Open MPI",
                 "srun --mpi=pmix --ntasks=1 \"$yee\" run \"$dir/deck.cfg\" --out \"$dir\" "
                 "\"${restart[@]}\" >> \"$dir/run.log\" 2>&1 &"]:
        expect(line in text.splitlines(), "script line %r missing:\n%s" % (line, text))
    expect("--time=00:30:00" not in text, "the deck's time is overridden")
    run(["bash", "-n", script])

    # the MPI plugin: what this Slurm offers for Open MPI, or what the deck or --mpi say
    for offered, want in (("MPI types are...\\nsrun: none\\nsrun: pmi2", "pmi2"),
                          ("MPI plugin types are...\\n\\tnone\\nspecific pmix plugin "
                           "versions available: pmix_v4,pmix_v5", "pmix_v4"),
                          ("srun: MPI types are...\\nsrun: none\\nsrun: pmix_v3", "pmix_v3")):
        run([yee, "sweep", deck, "--out", d, "--slurm"], dict(env, YEE_TEST_MPI_LIST=offered))
        expect("srun --mpi=%s --ntasks=1 " % want in open(script).read(),
               "%r offered: want --mpi=%s" % (offered, want))
    out = run([yee, "sweep", deck, "--out", d, "--slurm"],
              dict(env, YEE_TEST_MPI_LIST="MPI types are...\\n\\tnone\\n\\tcray_shasta"),
              ok=False)
    expect("`srun --mpi=list` offers no plugin for Open MPI (pmix or pmi2" in out and
           "set sweep.slurm.mpi or --mpi" in out, "no usable plugin:\n" + out)
    run([yee, "sweep", deck, "--out", d, "--slurm", "--mpi", "pmi2", "--checkpoint-margin",
         "0"], env)
    text = open(script).read()
    expect("srun --mpi=pmi2 --ntasks=1 " in text and "# --mpi=pmi2: from sweep.slurm.mpi or "
           "--mpi" in text, "--mpi pmi2:\n" + text)
    expect("--signal" not in text and "--requeue" not in text and "\ntrap " not in text,
           "--checkpoint-margin 0: no signal, no requeue:\n" + text)
    out = run([yee, "sweep", deck, "--out", d, "--slurm", "--mpi", "pmix; rm -rf /"], env,
              ok=False)
    expect("--mpi wants one word" in out, "--mpi with shell words:\n" + out)
    run([yee, "sweep", deck, "--out", d, "--slurm"], env)

    # --submit hands the script to sbatch with the environment yee was started with: none of
    # the variables its own MPI_Init added (they made every task's MPI job id 0)
    log = os.path.join(work, "sbatch.log")
    out = run([yee, "sweep", deck, "--out", d, "--slurm", "--submit"],
              dict(env, YEE_TEST_SBATCH_LOG=log, OMPI_MCA_btl="self,vader"))
    expect("as job 4242" in out, "--submit output:\n" + out)
    sub = open(log).read()
    expect("args: --parsable %s" % script in sub and "OMPI_MCA_btl=self,vader" in sub and
           "YEE_REAL=" in sub, "sbatch's arguments and the user's environment:\n" + sub)
    leaked = [v for v in sub.splitlines() if v.startswith(("PMIX_", "OMPI_MCA_ess", "OMPI_COMMAND"))]
    expect(not leaked, "MPI launch variables reached sbatch: %s" % leaked)
    out = run([yee, "sweep", deck, "--out", d, "--slurm", "--submit", "--quiet"], env)
    expect(out.strip() == "4242", "--submit --quiet prints the job id only: %r" % out)

    # nothing ran yet: --collect reports 4 pending and succeeds
    out = run([yee, "sweep", deck, "--out", d, "--collect"])
    expect("0 ok, 0 failed, 4 pending" in out, "collect before the array:\n" + out)

    # the array tasks, here one after another; task 3 fails
    task_env = {"PATH": stub_path, "YEE_REAL": yee, "YEE_FAIL_JOB": "job-0003/"}
    for task in (1, 2, 3, 4):
        task_env["SLURM_ARRAY_TASK_ID"] = str(task)
        task_env["SLURM_JOB_ID"] = str(100 + task)
        run(["bash", script], task_env, ok=task != 3)
    out = run([yee, "sweep", deck, "--out", d, "--collect"], ok=False)
    expect("3 ok, 1 failed, 0 pending" in out, "collect output:\n" + out)
    rows = summary(d)
    expect(rows[2]["status"] == "failed" and
           rows[2]["message"] == "exit status 1: yee: error: simulated failure",
           "failed task: %s" % rows[2])
    for i in (0, 1, 3):
        expect(rows[i]["status"] == "ok" and float(rows[i]["wall_s"]) > 0, "task %d" % (i + 1))
        expect(float(rows[i]["f_THz"]) > 250, "task %d has its resonance" % (i + 1))
    # a second script covers only what is not finished; a finished task exits at once
    run([yee, "sweep", deck, "--out", d, "--slurm"], env)
    text = open(script).read()
    expect("#SBATCH --array=3" in text.splitlines(), "resubmission covers job 3 only")
    task_env["SLURM_ARRAY_TASK_ID"] = "1"
    out = run(["bash", script], task_env)
    expect("finished already" in out, "a finished task exits: " + out)
    # a task whose job directory is locked by another runner leaves it alone
    task_env["SLURM_ARRAY_TASK_ID"] = "3"
    holder = subprocess.Popen(["flock", os.path.join(d, "job-0003", ".lock"), "sleep", "30"],
                              start_new_session=True)
    try:
        wait_for(lambda: lock_held(os.path.join(d, "job-0003", ".lock")), "flock holds the lock")
        out = run(["bash", script], task_env)
        expect("being run by another runner" in out, "a locked job is left alone: " + out)
        expect(not os.path.exists(os.path.join(d, "job-0003", "DONE")), "job 3 did not run")
    finally:
        os.killpg(holder.pid, 9)  # flock and its sleep, which holds the lock too
        holder.wait()


def lock_held(path):
    """True when another process holds the flock of path."""
    import fcntl
    with open(path, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(f, fcntl.LOCK_UN)
    return False


def wait_for(cond, what, timeout=60):
    import time
    t0 = time.time()
    while not cond():
        if time.time() - t0 > timeout:
            raise Fail("timed out waiting: " + what)
        time.sleep(0.05)


def case_lock(yee, work):
    """A sweep killed with its jobs still running, then run again, leaves those jobs alone."""
    import signal
    import time
    d = fresh(work, "lock")
    deck = os.path.join(HERE, "cavity.cfg")
    env = dict(os.environ, YEE_SWEEP_EXE=os.path.join(HERE, "slow_job.sh"), YEE_REAL=yee,
               YEE_SLOW_JOB="job-0001/")
    first = subprocess.Popen([yee, "sweep", deck, "--out", d], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    lock = os.path.join(d, "job-0001", ".lock")
    try:
        wait_for(lambda: os.path.exists(os.path.join(d, "job-0001", "slow.started")),
                 "job 1 started")
        first.send_signal(signal.SIGKILL)  # the sweep dies; its job 1 goes on
        first.wait()
        expect(lock_held(lock), "the running job still holds job-0001/.lock after its sweep died")
        out = run([yee, "sweep", deck, "--out", d], dict(env, YEE_SLOW_JOB="none"), ok=False)
        expect("job-0001 left alone: another runner holds job-0001/.lock" in out and
               "3 ok, 0 failed, 1 pending" in out, "rerun beside a running job:\n" + out)
        rows = summary(d)
        expect(rows[0]["status"] == "pending" and "another runner holds" in rows[0]["message"],
               "row 1: %s" % rows[0])
        starts = open(os.path.join(d, "job-0001", "slow.started")).read().count("start")
        expect(starts == 1, "job 1 started once, not %d times" % starts)
    finally:
        open(os.path.join(d, "job-0001", "slow.go"), "w").close()
    wait_for(lambda: not lock_held(lock), "job 1 ends and lets its lock go")
    time.sleep(0.2)
    out = run([yee, "sweep", deck, "--out", d])
    expect("4 ok, 0 failed, 0 pending" in out, "after job 1 ended:\n" + out)
    check_cavity_rows(summary(d))

    # Slurm tasks finish jobs 2-4 while a local sweep waits in job 1: the sweep, coming to them
    # after job 1, takes their DONE markers as they are and runs nothing twice
    d = fresh(work, "lock_done")
    script_env = {"YEE_SWEEP_EXE": os.path.join(HERE, "crash_job.sh"), "YEE_REAL": yee,
                  "PATH": HERE + os.pathsep + os.environ["PATH"]}
    run([yee, "sweep", deck, "--out", d, "--slurm"], script_env)
    local = subprocess.Popen([yee, "sweep", deck, "--out", d], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(lambda: os.path.exists(os.path.join(d, "job-0001", "slow.started")),
                 "job 1 started")
        done = {}
        for task in (2, 3, 4):
            run(["bash", os.path.join(d, "sweep.sbatch")],
                dict(script_env, SLURM_ARRAY_TASK_ID=str(task), SLURM_JOB_ID="9"))
            done[task] = os.stat(os.path.join(d, "job-%04d" % task, "DONE")).st_ino
    finally:
        open(os.path.join(d, "job-0001", "slow.go"), "w").close()
    local_sweep_took_done(local, d, done)


def local_sweep_took_done(local, d, done):
    """The local cavity sweep `local` ends with every job ok, and the jobs of done ({job: inode
    of its DONE}), finished by Slurm tasks while it waited, were not run again."""
    out = local.communicate(timeout=120)[0]
    expect(local.returncode == 0 and "4 ok, 0 failed, 0 pending" in out,
           "local sweep beside Slurm tasks:\n" + out)
    for task, ino in done.items():
        expect(os.stat(os.path.join(d, "job-%04d" % task, "DONE")).st_ino == ino,
               "job %d, finished by its Slurm task, was run again by the local sweep" % task)
    check_cavity_rows(summary(d))


def case_script_safety(yee, work):
    """Paths and names that would break out of the generated script, and CSV formulas."""
    base = fresh(work, "safety")
    os.makedirs(base)
    deck = os.path.join(HERE, "cavity.cfg")
    env = {"PATH": HERE + os.pathsep + os.environ["PATH"]}
    marker = os.path.join(base, "INJECTED")
    evil_dir = os.path.join(base, "out\ntouch %s\n" % marker)
    out = run([yee, "sweep", deck, "--out", evil_dir, "--slurm"], env, ok=False)
    expect("has a newline: it cannot go into a Slurm script; choose another --out" in out,
           "a newline in --out:\n" + out)
    evil_deck = os.path.join(base, "cav\ntouch INJECTED\n.cfg")
    shutil.copy(deck, evil_deck)
    out = run([yee, "sweep", evil_deck, "--out", os.path.join(base, "d1"), "--slurm"], env,
              ok=False)
    expect("the deck path" in out and "has a newline" in out, "a newline in the deck name:\n" + out)
    for bad in ("pct%A", 'quote"d', "back\\slash"):
        out = run([yee, "sweep", deck, "--out", os.path.join(base, bad), "--slurm"], env,
                  ok=False)
        expect("cannot go into a Slurm script" in out, "--out %r:\n%s" % (bad, out))
    # spaces, quotes and $ are quoted: the script runs with the directory as it is
    odd = os.path.join(base, "my runs $(touch INJECTED) 'x'")
    odd_deck = os.path.join(base, "cav $(touch INJECTED).cfg")
    shutil.copy(deck, odd_deck)
    run([yee, "sweep", odd_deck, "--out", odd, "--slurm"], env)
    script = os.path.join(odd, "sweep.sbatch")
    run(["bash", "-n", script])
    task_env = {"PATH": env["PATH"], "SLURM_ARRAY_TASK_ID": "1", "SLURM_JOB_ID": "7"}
    run(["bash", script], task_env, cwd=base)
    expect(os.path.exists(os.path.join(odd, "job-0001", "DONE")), "task 1 ran in %r" % odd)
    expect(not os.path.exists(marker), "nothing of a path ran as a command")
    expect("#SBATCH --job-name=yee-cav___touch_" in open(script).read(), "job name sanitized")

    # summary.csv: text a spreadsheet would run as a formula is quoted
    d = os.path.join(base, "csv")
    run([yee, "sweep", os.path.join(HERE, "formula.cfg"), "--out", d])
    with open(os.path.join(d, "summary.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    raw = open(os.path.join(d, "summary.csv")).read()
    expect([r["label"] for r in rows] == ["'=1+2", "'@SUM(A1)", "'+cmd", "'-x", "plain"],
           "formula-like labels quoted: %s" % [r["label"] for r in rows])
    expect([r["shift"] for r in rows] == ["-0.5", "0", "0.25", "-0.001", "2"],
           "numbers are not quoted: %s" % [r["shift"] for r in rows])
    expect('"\'=1+2"' in raw, "the cell is written as \"'=1+2\":\n" + raw)


def case_mpi(yee, work, mpiexec):
    deck = os.path.join(HERE, "cavity.cfg")
    d = fresh(work, "mpi")
    out = run(mpiexec + ["-np", "3", yee, "sweep", deck, "--out", d])
    expect("on 2 worker group(s) of 1 rank(s)" in out and "4 ok, 0 failed" in out,
           "mpi output:\n" + out)
    check_cavity_rows(summary(d))

    d = fresh(work, "mpi_crash")
    env = {"YEE_SWEEP_EXE": os.path.join(HERE, "crash_job.sh"), "YEE_REAL": yee,
           "YEE_CRASH_JOB": "job-0002/"}
    out = run(mpiexec + ["-np", "3", yee, "sweep", deck, "--out", d], env, ok=False)
    rows = summary(d)
    expect("3 ok, 1 failed" in out and rows[1]["message"].startswith("crashed: signal 11"),
           "crash under mpirun:\n" + out)

    d = fresh(work, "mpi_groups")
    log = os.path.join(work, "mpirun.log")
    if os.path.exists(log):
        os.remove(log)
    env = {"YEE_SWEEP_MPIRUN": os.path.join(HERE, "log_mpirun.sh"), "YEE_TEST_LOG": log,
           "YEE_TEST_MPIRUN": mpiexec[0]}
    out = run(mpiexec + ["-np", "3", yee, "sweep", deck, "--out", d, "--ranks-per-job", "2"],
              env)
    expect("on 1 worker group(s) of 2 rank(s)" in out and "4 ok, 0 failed" in out,
           "ranks-per-job output:\n" + out)
    check_cavity_rows(summary(d))
    launched = open(log).read().splitlines()
    expect(len(launched) == 4 and all(l.startswith("-np 2 --host ") and " run " in l
                                      for l in launched), "nested mpirun lines: %s" % launched)


def main():
    yee, work, case = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
    try:
        if case == "mpi":
            case_mpi(yee, work, sys.argv[4:])
        else:
            {"local": case_local, "crash": case_crash, "flux": case_flux,
             "slurm": case_slurm, "lock": case_lock,
             "script_safety": case_script_safety}[case](yee, work)
    except Fail as e:
        print("FAIL sweep_%s (%s)" % (case, e))
        return 1
    print("PASS sweep_%s" % case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
