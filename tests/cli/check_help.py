"""usage: check_help.py YEE SOURCE_DIR [--numbers] -- every command `yee --help` lists answers
--help, -h and `yee help COMMAND` with its own usage on stdout and exit 0, rejects an unknown
option with exit 2, accepts every option its help names, and the exit statuses of `yee --help`
are the ones README.md and docs/errors.md document.

Numbers (with --numbers, a test of its own, cli_help_numbers: a hundred starts of yee): every
option that takes a number is in BAD_NUMBERS with values it must refuse (junk after the
digits, nothing, out of range, overflow, NaN); each must exit 2 with "yee COMMAND: OPT
wants ... (got 'VALUE')" (common/yee_num.h). An option with a value is either there or in
TEXT_OPTIONS, so a numeric option added later without strict parsing fails here.

The command list is read from `yee --help` itself, so a command added to app/commands.c is
checked without editing this file, and one that main.c does not dispatch fails here.
"""
import os
import re
import subprocess
import sys

BOGUS = "--no-such-option"
# a value each option's argument accepts, by the name its help gives the argument
VALUES = {"N": "1", "S": "1", "R": "1", "G": "1", "C": "1", "PXxPYxPZ": "1x1x1", "N|NXxNYxNZ": "32",
          "THz": "1", "FS": "1", "E": "0.1", "Q": "10", "KEY=VALUE": "a=b", "NAME": "cpu",
          "DEG": "0", "UM": "1", "PATH": "0,0", "AXIS=UM": "x=0"}

# (command, the arguments before the option, option, values it must refuse); the command line
# ends with an unknown option, so a value wrongly accepted ends in that error, never in a run
OVERFLOW = "99999999999999999999"
BAD_NUMBERS = [
    ("run", ["deck.cfg"], "--ranks", ["2x2", "2x2x", "2x2x1x1", "0x1x1", "2x-1x1", "", "2xx1",
                                      "1x1x" + OVERFLOW, "a"]),
    ("bench", [], "--steps", ["12x", "", "0", "-5", "1.5", "1e3", " 12", OVERFLOW]),
    ("bench", [], "--threads", ["-1", "x", "", "4 ", OVERFLOW]),
    ("bench", [], "--repeat", ["0", "3x", "", OVERFLOW]),
    ("bench", [], "--size", ["16", "32x32", "32x32x32x32", "32x", "x32", "", "nan",
                             OVERFLOW]),
    ("bench", [], "--ranks", ["1x1", "1", "0x1x1", ""]),
    ("resonances", ["r.h5", "--probe", "p"], "--fmin", ["nan", "-1", "150THz", "", "inf",
                                                         "1e999"]),
    ("resonances", ["r.h5", "--probe", "p"], "--fmax", ["0", "nan", "x", "-inf"]),
    ("resonances", ["r.h5", "--probe", "p"], "--start", ["-1", "nan", "5fs", ""]),
    ("resonances", ["r.h5", "--probe", "p"], "--modes", ["0", "1.5", "10x", "", OVERFLOW]),
    ("resonances", ["r.h5", "--probe", "p"], "--max-error", ["0", "-0.1", "nan", "1%"]),
    ("resonances", ["r.h5", "--probe", "p"], "--min-q", ["-1", "nan", "ten"]),
    ("bands", ["deck.cfg"], "--k-path", ["", "0,x", "0,0,0,0", "0,,0", "nan,0", "0;0.5,"]),
    ("bands", ["deck.cfg"], "--k-interp", ["-1", "1.5", "3x", "", "10001", OVERFLOW]),
    ("bands", ["deck.cfg"], "--fmin", ["-1", "nan", "100THz", ""]),
    ("bands", ["deck.cfg"], "--fmax", ["0", "inf", "x"]),
    ("bands", ["deck.cfg"], "--start", ["-5", "10fs", ""]),
    ("bands", ["deck.cfg"], "--modes", ["0", "1.5", OVERFLOW]),
    ("bands", ["deck.cfg"], "--max-error", ["0", "nan"]),
    ("bands", ["deck.cfg"], "--min-q", ["-1", "q"]),
    ("farfield", ["r.h5", "--monitor", "box"], "--theta", ["0:200:5", "-1,90", "0:180:0",
                                                           "0:180:2.5", "a", "", "nan"]),
    ("farfield", ["r.h5", "--monitor", "box"], "--phi", ["0,400", "x", "0:90:", ""]),
    ("farfield", ["r.h5", "--monitor", "box"], "--r", ["0", "-1", "1m", "", "inf"]),
    ("farfield", ["r.h5", "--monitor", "box"], "--index", ["0", "-1.5", "nan", "n"]),
    ("modes", ["deck.cfg", "--wavelength", "1"], "--plane", ["x", "x=", "w=1", "x=1um", "x=nan",
                                                           "", "=1", "X=1"]),
    ("modes", ["deck.cfg", "--plane", "x=0"], "--wavelength", ["0", "-1", "1.55um", "", "inf"]),
    ("modes", ["deck.cfg", "--plane", "x=0"], "--frequency", ["0", "193THz", "nan", ""]),
    ("modes", ["deck.cfg", "--plane", "x=0", "--wavelength", "1"], "--modes",
     ["0", "101", "1.5", "2x", "", OVERFLOW]),
    ("export-vtk", ["r.h5"], "--frame", ["x", "", "1.5", OVERFLOW, "-" + OVERFLOW]),
    ("export-vtk", ["r.h5"], "--step", ["-1", "10s", "", OVERFLOW]),
    ("sweep", ["deck.cfg"], "--jobs", ["0", "2x", "", "-1", OVERFLOW]),
    ("sweep", ["deck.cfg"], "-j", ["0", "x"]),
    ("sweep", ["deck.cfg"], "--ranks-per-job", ["0", "1.0", ""]),
    ("sweep", ["deck.cfg"], "--gpus-per-job", ["-1", "one", ""]),
    ("sweep", ["deck.cfg"], "--cpus-per-job", ["0", "4c", ""]),
    ("sweep", ["deck.cfg"], "--checkpoint-margin", ["-1", "65536", "2m", ""]),
]
# options whose value is text (a file, a name, a key=value, a Slurm word), not a number
TEXT_OPTIONS = {"--out", "--set", "--backend", "--restart", "--geometry", "--probe",
                "--component", "--monitor", "--csv", "--time", "--partition", "--account", "--mem",
                "--mpi"}

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def run(yee, *args):
    r = subprocess.run([yee] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def section(text, title):
    """The lines of `title:` up to the next blank line."""
    lines = text.splitlines()
    start = lines.index(title + ":") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def commands(usage):
    """[(name, first line of its summary)] from the commands section of `yee --help`."""
    out = []
    for line in section(usage, "commands"):
        if line.startswith(" " * 17):
            if out and out[-1][1] is None:
                out[-1][1] = line.strip()
        elif line.startswith("  ") and not line.startswith("   "):
            name = line.split()[0]
            same_line = line[2 + len(name):17].strip() == "" and line[17:18].strip()
            out.append([name, line[17:].strip() if same_line else None])
    return out


def options(help_text):
    """[(flag, alias or None, argument name or None)] of a command's options section."""
    out = []
    for line in section(help_text, "options"):
        m = re.match(r"^  (?:(-\w), )?(--[\w-]+)(?: (\S+))?", line)
        if m and m.group(2) != "--help":
            out.append((m.group(2), m.group(1), m.group(3)))
    return out


def check_command(yee, name, summary):
    helps = {}
    for flag in ("--help", "-h"):
        rc, out, err = run(yee, name, flag)
        helps[flag] = out
        if rc != 0:
            fail("yee %s %s exited %d: %s" % (name, flag, rc, err.strip()))
        if not out.startswith("usage: yee %s" % name):
            fail("yee %s %s does not start with its usage line: %r" % (name, flag, out[:80]))
        if summary and summary not in out:
            fail("yee %s %s lacks the summary yee --help gives it: %r" % (name, flag, summary))
        if err:
            fail("yee %s %s printed on stderr: %r" % (name, flag, err))
        if any(len(line) > 80 for line in out.splitlines()):
            fail("yee %s %s has lines over 80 columns" % (name, flag))
    if helps["--help"] != helps["-h"]:
        fail("yee %s --help and -h differ" % name)
    rc, out, _ = run(yee, "help", name)
    if rc != 0 or out != helps["--help"]:
        fail("yee help %s differs from yee %s --help (exit %d)" % (name, name, rc))

    rc, out, err = run(yee, name, BOGUS)
    if rc != 2 or BOGUS not in err:
        fail("yee %s %s exited %d (want 2, naming the option): %r" % (name, BOGUS, rc, err))

    # every option the help names is one the command accepts: given before an unknown one,
    # the command still stops at the unknown one (exit 2), and names that one, not the first
    for flag, alias, arg in options(helps["--help"]):
        for f in [flag] + ([alias] if alias else []):
            args = [f] + ([VALUES.get(arg, "x")] if arg else []) + [BOGUS]
            rc, out, err = run(yee, name, *args)
            if rc != 2 or BOGUS not in err or ("'%s'" % f) in err:
                fail("yee %s %s: the option yee %s --help lists is not accepted (exit %d: %r)"
                     % (name, " ".join(args), name, rc, err.strip()))
    return len(options(helps["--help"]))


def check_bad_numbers(yee, cmds):
    """Each value of BAD_NUMBERS refused with exit 2 and a message naming option and value; every
    option with a value of every command is either numeric (in the table) or in TEXT_OPTIONS."""
    covered = {(c, o) for c, _, o, _ in BAD_NUMBERS}
    for name, _ in cmds:
        _, text, _ = run(yee, name, "--help")
        for flag, alias, arg in options(text):
            for f in [flag] + ([alias] if alias else []):
                if arg and f not in TEXT_OPTIONS and (name, f) not in covered:
                    fail("yee %s %s %s: neither in BAD_NUMBERS nor in TEXT_OPTIONS of this test"
                         % (name, f, arg))
    ncases = 0
    for name, before, opt, values in BAD_NUMBERS:
        for v in values:
            ncases += 1
            rc, out, err = run(yee, name, *(before + [opt, v, BOGUS]))
            want = "yee %s: %s wants " % (name, opt)
            got = "(got '%s')" % v
            if rc != 2 or want not in err or got not in err:
                fail("yee %s %s %r: exit %d, want 2 with '%s... %s': %r"
                     % (name, opt, v, rc, want, got, err.strip()))
    # both ends given: the lower must be below the upper
    rc, _, err = run(yee, "resonances", "r.h5", "--probe", "p", "--fmin", "500", "--fmax",
                     "100")
    if rc != 2 or "--fmin (500 THz) must be below --fmax (100 THz)" not in err:
        fail("yee resonances --fmin 500 --fmax 100: exit %d: %r" % (rc, err.strip()))
    return ncases + 1


def documented_codes(path):
    """Exit statuses in the first table of a markdown file whose header names 'exit status'."""
    codes = set()
    in_table = False
    with open(path) as f:
        for line in f:
            if re.match(r"^\|\s*exit status\s*\|", line, re.I):
                in_table = True
            elif in_table and line.startswith("|"):
                m = re.match(r"^\|\s*(\d+)\s*\|", line)
                if m:
                    codes.add(int(m.group(1)))
            elif in_table:
                break
    return codes


def main():
    yee, src = sys.argv[1], sys.argv[2]
    rc, usage, err = run(yee, "--help")
    if rc != 0:
        sys.exit("FAIL yee --help exited %d: %s" % (rc, err))
    cmds = commands(usage)
    names = [c[0] for c in cmds]
    for must in ("run", "check", "sweep", "info"):  # the parser above still reads the list
        if must not in names:
            sys.exit("FAIL yee --help lists no command '%s' (read: %s)" % (must, names))
    if sys.argv[3:] == ["--numbers"]:
        nbad = check_bad_numbers(yee, cmds)
        if failures:
            sys.exit("FAIL %d problem(s)" % len(failures))
        print("ok: %d bad numbers refused by %d commands" % (nbad, len({c for c, _, _, _ in
                                                                      BAD_NUMBERS})))
        return
    nopts = 0
    for name, summary in cmds:
        nopts += check_command(yee, name, summary)

    codes = {int(l.split()[0]) for l in section(usage, "exit status") if re.match(r"^  \d", l)}
    if codes != {0, 1, 2, 3}:
        fail("yee --help lists exit statuses %s, want 0 1 2 3" % sorted(codes))
    for doc in ("README.md", os.path.join("docs", "errors.md")):
        have = documented_codes(os.path.join(src, doc))
        if have != codes:
            fail("%s documents exit statuses %s, yee --help %s" % (doc, sorted(have),
                                                                    sorted(codes)))
    if failures:
        sys.exit("FAIL %d problem(s)" % len(failures))
    print("ok: %d commands (%s), %d options, exit statuses %s" % (len(names), " ".join(names),
                                                                  nopts, sorted(codes)))


if __name__ == "__main__":
    main()
