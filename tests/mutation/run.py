#!/usr/bin/python3
"""Mutation testing of the physics: put one small bug at a time into a scratch copy of the
sources, rebuild, run the tests that ought to see it, and count the mutants they kill.

usage: run.py [--list FILE] [--work DIR] [--ci] [--only NAME,...] [--check]

  --list   the mutants (default tests/mutation/mutants.txt; its header gives the format)
  --work   scratch directory: src/ (a copy of the working tree) and build/ (a CPU-only build,
           kept between runs so that each mutant rebuilds incrementally); default build-mutation
  --ci     only the mutants marked `ci = yes` (the cheap subset .ci/run runs)
  --only   only these mutants
  --check  only check that every `find` occurs exactly once; build and run nothing

Prints one line per mutant (killed, survived, equivalent-survived, or an error; for a killed
one, the first check it failed with that check's figure unmutated -> mutated, from the
`PASS|FAIL name (err=...)` lines of validation/vcommon.check) and the kill rate over the
non-equivalent mutants, and writes the same as a markdown table to WORK/mutation.md; exits 1 when one of those survives or cannot be applied.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def parse(path):
    """The mutant blocks of the list file, in order: dicts with name, file, find, replace..."""
    mutants, cur = [], None
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                cur = {"name": line[1:-1], "line": lineno}
                mutants.append(cur)
                continue
            key, sep, value = line.partition(" = ")
            if not sep or cur is None or key not in ("file", "find", "replace", "tests", "ci",
                                                       "equivalent"):
                sys.exit("%s:%d: expected `key = value` (file, find, replace, tests, ci, "
                         "equivalent) inside a [mutant] block (got %r)" % (path, lineno, line))
            cur[key] = value
    for m in mutants:
        missing = [k for k in ("file", "find", "replace", "tests") if k not in m]
        if missing:
            sys.exit("%s:%d: mutant %s lacks %s" % (path, m["line"], m["name"], ", ".join(missing)))
    return mutants


def copy_tree(dst):
    """The working tree as git sees it (tracked and untracked, not ignored) into dst."""
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard", "-z"],
                           check=True, stdout=subprocess.PIPE).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = os.path.join(ROOT, rel)
        if not os.path.isfile(src):
            continue
        out = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if not os.path.exists(out) or open(src, "rb").read() != open(out, "rb").read():
            # a fresh mtime (not copy2's): a file restored after an interrupted mutant must
            # look newer than the objects built from the mutant
            shutil.copy(src, out)


def sh(cmd, cwd, log, timeout=None):
    """Run cmd in cwd, its output appended to log; returns (exit status, that output)."""
    with open(log, "a") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        start = f.tell()
        try:
            rc = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT,
                                timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            f.write("timed out after %s s\n" % timeout)
            rc = 124
    with open(log) as f:
        f.seek(start)
        return rc, f.read()


# A checked figure as validation/vcommon.check prints it (ctest -V prefixes "N: "):
#   PASS cpml_face (err=-92.2 dB, tol=..., bound=...; note)
CHECK_LINE = re.compile(r"^(?:\d+: )?(PASS|FAIL) (\w+) \((?:err)?=?([^,;)]*)")
FAILED_TEST = re.compile(r"^\s*\d+ - (\S+) \(")


def figures(output):
    """{check name: (PASS|FAIL, value)} of the checks a ctest run printed."""
    out = {}
    for line in output.splitlines():
        m = CHECK_LINE.match(line)
        if m:
            out[m.group(2)] = (m.group(1), m.group(3).strip())
    return out


def what_failed(output, before):
    """How a killed mutant showed: the first failed check with its figure unmutated -> mutated,
    else the names of the failed tests."""
    for name, (verdict, value) in figures(output).items():
        if verdict == "FAIL":
            if value and name in before:
                return "%s %s -> %s" % (name, before[name][1], value)
            return "%s failed" % name
    tests = [m.group(1) for m in map(FAILED_TEST.match, output.splitlines()) if m]
    return ", ".join(tests) + " failed" if tests else "failed"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", default=os.path.join(ROOT, "tests", "mutation", "mutants.txt"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build-mutation"))
    ap.add_argument("--ci", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    args.work = os.path.abspath(args.work)  # the build commands run inside it

    mutants = parse(args.list)
    if args.ci:
        mutants = [m for m in mutants if m.get("ci") == "yes"]
    if args.only:
        want = set(args.only.split(","))
        unknown = want - {m["name"] for m in mutants}
        if unknown:
            sys.exit("no mutant named %s" % ", ".join(sorted(unknown)))
        mutants = [m for m in mutants if m["name"] in want]

    bad = []
    for m in mutants:
        text = open(os.path.join(ROOT, m["file"])).read()
        n = text.count(m["find"])
        if n != 1:
            bad.append("%s: `find` occurs %d times in %s (must be once)" % (m["name"], n,
                                                                           m["file"]))
    if bad or args.check:
        print("\n".join(bad) if bad else "%d mutants, every `find` found once" % len(mutants))
        return 1 if bad else 0

    src, build = os.path.join(args.work, "src"), os.path.join(args.work, "build")
    log = os.path.join(args.work, "mutation.log")
    os.makedirs(args.work, exist_ok=True)
    open(log, "w").close()
    copy_tree(src)
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        if sh(["cmake", "-S", src, "-B", build, "-DYEE_CUDA=OFF",
               "-DCMAKE_BUILD_TYPE=Release"], args.work, log)[0] != 0:
            sys.exit("configure failed: see %s" % log)
    jobs = str(os.cpu_count() or 2)
    if sh(["cmake", "--build", build, "-j", jobs], args.work, log)[0] != 0:
        sys.exit("the unmutated build failed: see %s" % log)

    # The named tests must exist and pass unmutated, or a failure would say nothing about the
    # mutant. One ctest per regex: CMake's regex engine allows only 9 groups, too few for a union.
    t0 = time.monotonic()
    before = {}
    for regex in sorted({m["tests"] for m in mutants}):
        rc, output = sh(["ctest", "-R", regex, "-j", jobs, "--no-tests=error", "-V"], build, log)
        before.update(figures(output))
        if rc != 0:
            sys.exit("the tests %s fail (or none matches) without any mutant: see %s" % (regex,
                                                                                    log))
    print("baseline: the named tests pass unmutated (%.0f s)" % (time.monotonic() - t0))

    results = []
    for m in mutants:
        path = os.path.join(src, m["file"])
        original = open(path).read()
        with open(path, "w") as f:
            f.write(original.replace(m["find"], m["replace"]))
        t0 = time.monotonic()
        try:
            how = ""
            if sh(["cmake", "--build", build, "-j", jobs], args.work, log)[0] != 0:
                verdict = "error: does not compile"
            else:
                rc, output = sh(["ctest", "-R", m["tests"], "-j", jobs, "--no-tests=error",
                                 "--output-on-failure"], build, log, timeout=1200)
                verdict = "killed" if rc != 0 else "survived"
                if rc != 0:
                    how = what_failed(output, before)
        finally:
            with open(path, "w") as f:
                f.write(original)
        if verdict == "survived" and "equivalent" in m:
            verdict = "equivalent (%s)" % m["equivalent"]
        results.append((m, verdict, how))
        print("%-24s %-10s %5.0f s  %s  [%s]%s" % (m["name"], verdict.split(" ")[0],
                                                   time.monotonic() - t0, m["file"], m["tests"],
                                                   "  " + how if how else ""), flush=True)
    # leave the scratch build unmutated for the next run
    sh(["cmake", "--build", build, "-j", jobs], args.work, log)

    with open(os.path.join(args.work, "mutation.md"), "w") as f:
        f.write("| mutant | file | verdict | how it showed (figure unmutated -> mutated) |\n"
                "| --- | --- | --- | --- |\n")
        for m, verdict, how in results:
            f.write("| %s | %s | %s | %s |\n" % (m["name"], m["file"], verdict, how))
    print("table: %s" % os.path.join(args.work, "mutation.md"))
    counted = [v for _, v, _ in results if not v.startswith("equivalent")]
    killed = sum(1 for v in counted if v == "killed")
    print("killed %d of %d non-equivalent mutants (%.0f %%); %d equivalent" % (
        killed, len(counted), 100.0 * killed / max(1, len(counted)), len(results) - len(counted)))
    return 0 if killed == len(counted) else 1


if __name__ == "__main__":
    sys.exit(main())
