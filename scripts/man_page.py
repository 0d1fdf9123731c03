#!/usr/bin/python3
"""usage: man_page.py YEE OUT.1 -- write the yee(1) man page from what the built program says:
`yee --help` (commands, exit status), `yee COMMAND --help` for each command it lists, and
`yee deck-keys` (every deck key). The build runs it (CMakeLists.txt, target yee_man), so the page
cannot drift from the program; the texts themselves live in app/commands.c and io/deck_schema.c.
Plain roff (man(7) macros), no help2man: the help is printed verbatim in no-fill blocks.
"""
import os
import re
import subprocess
import sys

# In the sanitizer build (make test-asan) LeakSanitizer reports Open MPI's own allocations at
# exit and turns the exit status to 1, which would fail the build here: leaks are checked by the
# fuzzer and valgrind, not by the man page.
ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")


def yee_says(yee, *args):
    return subprocess.run([yee] + list(args), check=True, stdout=subprocess.PIPE,
                          text=True, env=ENV).stdout


def roff(text):
    """Text as roff prints it: backslashes escaped, no line taken for a request."""
    out = []
    for line in text.replace("\\", "\\e").splitlines():
        out.append("\\&" + line if line[:1] in (".", "'") else line)
    return "\n".join(out)


def section(text, title):
    lines = text.splitlines()
    start = lines.index(title + ":") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    yee, out_path = sys.argv[1], sys.argv[2]
    version = yee_says(yee, "--version").split()[-1]
    usage = yee_says(yee, "--help")
    commands = [m.group(1) for m in (re.match(r"^  (\S+)", l) for l in section(usage, "commands"))
                if m]
    page = [
        '.TH YEE 1 "" "yee %s" "User Commands"' % version,
        ".SH NAME",
        "yee \\- 3-D FDTD electromagnetic solver for photonics",
        ".SH SYNOPSIS",
        ".B yee",
        ".I command",
        "[\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        "yee advances Maxwell's equations on a Yee grid described by a libconfig deck and writes",
        "one HDF5 file per run (snapshots, probes, flux spectra, DFT fields).",
        "Units: lengths um, times fs, frequencies THz.",
        ".PP",
        ".nf",
        roff(usage),
        ".fi",
        ".SH COMMANDS",
    ]
    for c in commands:
        page += [".SS yee %s" % c, ".nf", roff(yee_says(yee, c, "--help")), ".fi"]
    page += [".SH EXIT STATUS", ".nf", roff("\n".join(section(usage, "exit status"))), ".fi",
             ".SH DECK KEYS",
             "Each key of a deck, with its type, unit and default (yee deck-keys)."]
    for line in yee_says(yee, "deck-keys").splitlines():
        key, kind, unit, default, text = (line.split("\t") + [""] * 5)[:5]
        page += [".TP", "\\fB%s\\fR (%s, unit %s, default %s)" % (roff(key), roff(kind),
                                                                  roff(unit), roff(default)),
                 roff(text)]
    page += [".SH SEE ALSO",
             "The guides installed in share/doc/yee/docs: deck.md (the deck), output.md (the files),",
             "postproc.md (yee-plot-spectrum, yee-plot-snapshot, yee-plot-flux, yee-plot-bands,",
             "yee-plot-farfield, yee-plot-modes, yee-animate),",
             "errors.md, sweeps.md, bands.md, modes.md, cluster.md, checkpoint.md."]
    with open(out_path, "w") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
