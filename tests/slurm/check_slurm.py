"""`yee sweep --slurm` on a real one-node Slurm cluster (tests/slurm/cluster.sh): the array is
submitted with sbatch, its tasks run under srun with the MPI plugin yee detected, and what they
leave is collected and compared with a local run of the same deck.

usage: check_slurm.py CASE YEE WORKDIR CLUSTERDIR
  array    tests/sweep/cavity.cfg, 4 tasks of 1 rank: summary.csv equal to a local sweep's and to
           the analytic cavity modes
  ranks    the same sweep with 2 MPI ranks per job (srun --mpi=pmix): every dataset of every job
           bit-identical to the local 1-rank runs
  cancel   tests/slurm/long.cfg cancelled (scancel) while its runs are half way: nothing counted
           as finished or failed; resubmitted, the runs continue from their checkpoints and end
           with the bytes of an uninterrupted run; no row lost or doubled
  preempt  the warning signal of a time limit or preemption (--signal=B:TERM, sent here with
           scancel --batch) to one task: it checkpoints, requeues itself and finishes in its
           second attempt, bit-identical to an uninterrupted run
  lock     a local `yee sweep` holds job 1 while the Slurm array runs: the task of job 1 leaves
           it, the others run; the local sweep then takes their results as they are
Exits 77 (skipped) when the cluster of CLUSTERDIR is not running, with cluster.sh's reason.
"""
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TESTS, "sweep"))
sys.path.insert(0, os.path.join(TESTS, "mpi"))
import check_sweep  # noqa: E402  (tests/sweep: summary(), check_cavity_rows(), run())
from check_sweep import Fail, expect, summary, wait_for  # noqa: E402
from same_fields import compare  # noqa: E402

CAVITY = os.path.join(TESTS, "sweep", "cavity.cfg")
LONG = os.path.join(HERE, "long.cfg")
ENV = {}


def run(cmd, env_extra=None, ok=True, cwd=None):
    env = dict(ENV)
    env.update(env_extra or {})
    return check_sweep.run(cmd, env, ok, cwd)


def cluster_env(cluster):
    """The variables of CLUSTERDIR/env (SLURM_CONF, PATH with /usr/sbin) over this process's."""
    env = dict(os.environ)
    out = subprocess.run(["sh", "-c", '. "$1/env" && env -0', "sh", cluster],
                         capture_output=True, check=True).stdout
    for item in out.split(b"\0"):
        if b"=" in item:
            k, v = item.decode().split("=", 1)
            env[k] = v
    # a run of the tests from inside a Slurm job must not hand its own job to the tasks
    for k in list(env):
        if k.startswith("SLURM_") and k != "SLURM_CONF":
            del env[k]
    return env


def submit(deck, out, *flags):
    """yee sweep --slurm --submit; the job id."""
    text = run([YEE, "sweep", deck, "--out", out, "--slurm", "--submit", "--quiet"] +
               list(flags)).strip()
    expect(re.fullmatch(r"\d+", text) is not None, "--submit --quiet prints the job id: %r" % text)
    return text


def queued(jobid):
    """The array tasks of jobid still pending, running or completing: {task: state}."""
    out = run(["squeue", "-h", "-r", "-j", jobid, "-o", "%K %T"], ok=None)
    tasks = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit():
            tasks[int(parts[0])] = parts[1]
    return tasks


def wait_done(jobid, d, timeout=240):
    try:
        wait_for(lambda: not queued(jobid), "Slurm job %s to end" % jobid, timeout)
    except Fail:
        raise Fail("job %s still queued after %d s: %s\n%s" % (jobid, timeout, queued(jobid),
                                                              task_outputs(d)))


def task_outputs(d):
    """Every slurm-*.out of d, for failure messages."""
    text = ""
    for name in sorted(os.listdir(d)):
        if name.startswith("slurm-") and name.endswith(".out"):
            text += "--- %s\n%s" % (name, open(os.path.join(d, name)).read())
    return text


def task_output(d, jobid, task):
    path = os.path.join(d, "slurm-%s_%d.out" % (jobid, task))
    return open(path).read() if os.path.exists(path) else ""


def collect(deck, d, expect_line):
    out = run([YEE, "sweep", deck, "--out", d, "--collect"], ok=None)
    expect(expect_line in out, "collect:\n%s\n%s" % (out, task_outputs(d)))
    return summary(d)


def local_sweep(deck, d, *flags):
    out = run([YEE, "sweep", deck, "--out", d] + list(flags))
    expect(" 0 failed, 0 pending" in out, "local sweep:\n" + out)
    return summary(d)


def same_h5(ref, other, label):
    failures, _ = compare(ref, other, label)
    expect(failures == 0, "%s: %d dataset(s) differ from the local run" % (label, failures))


def running_with_output(d, jobs):
    """True once each of jobs (1-based) has started stepping (its run.log has the banner)."""
    for j in jobs:
        log = os.path.join(d, "job-%04d" % j, "run.log")
        if not (os.path.exists(log) and "steps of" in open(log).read()):
            return False
    return True


def fresh(name):
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(WORK, exist_ok=True)
    return d


def case_array():
    d, ref = fresh("array"), fresh("array_local")
    jobid = submit(CAVITY, d)
    want = local_sweep(CAVITY, ref)
    wait_done(jobid, d)
    rows = collect(CAVITY, d, "4 ok, 0 failed, 0 pending")
    check_sweep.check_cavity_rows(rows)
    for got, exp in zip(rows, want):
        for key in ("job", "a", "sigma", "status", "f_THz", "Q", "wl_um"):
            expect(got[key] == exp[key], "job %s %s: %s under Slurm, %s locally" %
                   (got["job"], key, got[key], exp[key]))
    for task in (1, 2, 3, 4):
        expect("yee-setup" in task_output(d, jobid, task), "task %d ran the setup lines" % task)


def case_ranks():
    d, ref = fresh("ranks"), fresh("ranks_local")
    script_text = run([YEE, "sweep", CAVITY, "--out", d, "--slurm", "--ranks-per-job", "2"])
    text = open(os.path.join(d, "sweep.sbatch")).read()
    expect("#SBATCH --ntasks=2" in text and "srun --mpi=pmix" in text,
           "2 ranks per job through the pmix plugin:\n" + script_text + text)
    jobid = submit(CAVITY, d, "--ranks-per-job", "2")
    local_sweep(CAVITY, ref)
    wait_done(jobid, d)
    collect(CAVITY, d, "4 ok, 0 failed, 0 pending")
    for j in (1, 2, 3, 4):
        log = open(os.path.join(d, "job-%04d" % j, "run.log")).read()
        expect("halo:" in log, "job %d ran on 2 ranks (a halo line):\n%s" % (j, log))
        name = [f for f in os.listdir(os.path.join(ref, "job-%04d" % j)) if f.endswith(".h5")][0]
        same_h5(os.path.join(ref, "job-%04d" % j, name), os.path.join(d, "job-%04d" % j, name),
                "job %d, 2 ranks under Slurm" % j)


def reference_run(d):
    """The uninterrupted run of job 1 of long.cfg, started in the background."""
    os.makedirs(d)
    return subprocess.Popen([YEE, "sweep", LONG, "--out", d, "--jobs", "1"], env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


def check_long_against(d, ref_dir, ref_proc, jobs=(1, 2)):
    expect(ref_proc.wait(timeout=300) == 0, "the local reference sweep failed")
    for j in jobs:
        h5 = os.path.join("job-%04d" % j, "long.h5")
        same_h5(os.path.join(ref_dir, h5), os.path.join(d, h5), "long.cfg job %d" % j)


def case_cancel():
    d, ref = fresh("cancel"), fresh("cancel_local")
    jobid = submit(LONG, d)
    ref_proc = reference_run(ref)
    wait_for(lambda: running_with_output(d, (1, 2)), "both tasks stepping", 120)
    time.sleep(1.5)
    run(["scancel", jobid])
    wait_done(jobid, d)
    rows = collect(LONG, d, "0 ok, 0 failed, 2 pending")
    # A task cancelled while stepping leaves a checkpoint; one still setting up (a loaded
    # machine: the banner comes before the geometry) stops at once with nothing to keep. Both
    # are pending, neither failed.
    resumed = []
    for j in (1, 2):
        jd = os.path.join(d, "job-%04d" % j)
        has_ckpt = os.path.exists(os.path.join(jd, "long.ckpt"))
        out = task_output(d, jobid, j)
        expect(("stopped after writing a checkpoint" in out) == has_ckpt and
               (has_ckpt or "before the first step" in open(os.path.join(jd, "run.log")).read()),
               "task %d stopped at a checkpoint, or before its first step:\n%s" %
               (j, task_outputs(d)))
        if has_ckpt:
            resumed.append(j)
    expect(resumed, "no task was cancelled while stepping:\n%s" % task_outputs(d))
    jobid2 = submit(LONG, d)
    wait_done(jobid2, d)
    rows = collect(LONG, d, "2 ok, 0 failed, 0 pending")
    expect([r["job"] for r in rows] == ["1", "2"], "one row per job: %s" % rows)
    for j in resumed:
        expect("continuing from the checkpoint" in task_output(d, jobid2, j),
               "task %d of the resubmission continued:\n%s" % (j, task_outputs(d)))
    check_long_against(d, ref, ref_proc)
    local = local_sweep(LONG, ref)
    for got, exp in zip(rows, local):
        expect(got["f_THz"] == exp["f_THz"], "job %s: f %s, locally %s" %
               (got["job"], got["f_THz"], exp["f_THz"]))


def case_preempt():
    d, ref = fresh("preempt"), fresh("preempt_local")
    jobid = submit(LONG, d)
    text = open(os.path.join(d, "sweep.sbatch")).read()
    expect("#SBATCH --signal=B:TERM@120" in text and "#SBATCH --requeue" in text,
           "the script asks for the warning signal and may be requeued:\n" + text)
    ref_proc = reference_run(ref)
    wait_for(lambda: running_with_output(d, (1,)), "task 1 stepping", 120)
    time.sleep(1.5)  # into the run, past its first steps
    # what slurmctld sends 120 s before the time limit (or on preemption with GraceTime)
    run(["scancel", "--batch", "--signal=TERM", "%s_1" % jobid])
    wait_done(jobid, d, 300)
    rows = collect(LONG, d, "2 ok, 0 failed, 0 pending")
    out = task_output(d, jobid, 1)
    expect("requeueing" in out and "continuing from the checkpoint" in out and "(requeued 1 time(s))" in out,
           "task 1 requeued itself and continued:\n" + out)
    expect("continuing" not in task_output(d, jobid, 2), "task 2 ran once, untouched")
    expect([r["job"] for r in rows] == ["1", "2"], "one row per job: %s" % rows)
    check_long_against(d, ref, ref_proc)


def case_lock():
    d = fresh("lock")
    # the script first: a second `yee sweep` in a directory that a sweep is working in refuses,
    # so here the array is submitted with plain sbatch, as a user may do
    run([YEE, "sweep", CAVITY, "--out", d, "--slurm"])
    env = {"YEE_SWEEP_EXE": os.path.join(TESTS, "sweep", "slow_job.sh"), "YEE_REAL": YEE,
           "YEE_SLOW_JOB": "job-0001/"}
    local = subprocess.Popen([YEE, "sweep", CAVITY, "--out", d, "--jobs", "1"],
                             env=dict(ENV, **env), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(lambda: os.path.exists(os.path.join(d, "job-0001", "slow.started")),
                 "job 1 started locally")
        jobid = run(["sbatch", "--parsable", os.path.join(d, "sweep.sbatch")]).strip()
        wait_done(jobid, d)
        expect("being run by another runner" in task_output(d, jobid, 1),
               "task 1 left job 1 to the local sweep:\n" + task_outputs(d))
        done = {}
        for j in (2, 3, 4):
            path = os.path.join(d, "job-%04d" % j, "DONE")
            expect(os.path.exists(path), "task %d finished job %d:\n%s" % (j, j, task_outputs(d)))
            done[j] = os.stat(path).st_ino
    finally:
        open(os.path.join(d, "job-0001", "slow.go"), "w").close()
    check_sweep.local_sweep_took_done(local, d, done)


def main():
    global YEE, WORK, ENV
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    case, YEE, WORK, cluster = sys.argv[1:]
    status = subprocess.run(["sh", os.path.join(HERE, "cluster.sh"), "status", cluster],
                            capture_output=True, text=True)
    if status.returncode != 0:
        print(status.stdout.strip() or "SKIP slurm cluster not running")
        return 77
    ENV = cluster_env(cluster)
    t0 = time.time()
    try:
        {"array": case_array, "ranks": case_ranks, "cancel": case_cancel,
         "preempt": case_preempt, "lock": case_lock}[case]()
    except Fail as e:
        print("FAIL slurm_%s (%s)" % (case, e))
        return 1
    print("PASS slurm_%s (%.1f s)" % (case, time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
