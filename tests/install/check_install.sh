#!/bin/sh
# check_install.sh BUILD_DIR WORK_DIR [PYTHON PY_SITE_DIR] -- `cmake --install BUILD_DIR --prefix
# WORK_DIR/p`, then use
# what it installed as a user would: yee checks an installed example deck, the man page renders
# with its NAME section, bash completes a command, an option and a deck key, each plotting
# command answers --help and errors under its own name, and one imports yee_h5 from the
# installed tree (not this checkout) when it reads a file that is not a run. With PYTHON and
# PY_SITE_DIR (YEE_PYTHON_INSTALL_DIR, when libyee is built): the prefix is moved, and PYTHON
# imports the module yee from the moved site folder, finds the moved libyee.so and yee, and runs
# an installed example deck.
set -u
build=$1
p=$2/p
python=${3:-}
site=${4:-}
fail() { echo "FAIL $*"; exit 1; }
rm -rf "$p"
cmake --install "$build" --prefix "$p" >/dev/null || fail "cmake --install exited $?"
"$p/bin/yee" check "$p/share/doc/yee/examples/dipole.cfg" >/dev/null ||
    fail "installed yee check of the installed dipole.cfg exited $?"
[ -f "$p/share/doc/yee/docs/deck.md" ] && [ -f "$p/share/doc/yee/README.md" ] ||
    fail "README.md and docs/ not installed in share/doc/yee"
# the page as man shows it, bold and underline (backspace overstrikes) removed
page=$(groff -man -Tascii "$p/share/man/man1/yee.1" 2>&1 | sed 's/.\x08//g')
echo "$page" | grep -q "^NAME" || fail "share/man/man1/yee.1 has no NAME section: $page"
echo "$page" | grep -q "^ *yee deck-keys" || fail "share/man/man1/yee.1 lacks the commands"
echo "$page" | grep -q "^ *grid.resolution" || fail "share/man/man1/yee.1 lacks the deck keys"
# bash completion: a command, an option and a deck key, from the installed yee
comp=$(PATH="$p/bin:$PATH" bash -c ". '$p/share/bash-completion/completions/yee'
    COMP_WORDS=(yee ru); COMP_CWORD=1; _yee; a=\${COMPREPLY[*]}
    COMP_WORDS=(yee run --ou); COMP_CWORD=2; _yee; b=\${COMPREPLY[*]}
    COMP_WORDS=(yee check x.cfg --set grid.res); COMP_CWORD=4; _yee; echo \"\$a|\$b|\${COMPREPLY[*]}\"")
[ "$comp" = "run|--out|grid.resolution=" ] || fail "bash completion gave '$comp'"
# each plotting command names itself as typed, not as its script file (plot_spectrum.py):
# in its usage line, in argparse's errors (exit 2) and in the errors of yee_h5.run_main
for tool in yee-plot-spectrum yee-plot-snapshot yee-plot-flux yee-plot-bands yee-plot-farfield yee-plot-modes yee-animate; do
    out=$("$p/bin/$tool" --help) || fail "$tool --help exited $?"
    case "$out" in
        "usage: $tool "*) ;;
        *) fail "$tool --help does not start 'usage: $tool': $out" ;;
    esac
    out=$("$p/bin/$tool" --no-such-option 2>&1)
    rc=$?
    [ "$rc" -eq 2 ] && echo "$out" | grep -q "^$tool: error: " ||
        fail "$tool --no-such-option: exit $rc, want 2 and '$tool: error: ...': $out"
    echo "$out" | grep -q '\.py' && fail "$tool names a .py file in its usage error: $out"
done
# from elsewhere, so the only yee_h5 to import is the installed one
cd "$2" && echo "not hdf5" > notarun.h5 || fail "cannot write in $2"
out=$("$p/bin/yee-plot-spectrum" notarun.h5 --probe p 2>&1)
rc=$?
[ "$rc" -eq 1 ] && echo "$out" | grep -q "^yee-plot-spectrum: error: " ||
    fail "yee-plot-spectrum on a non-run file: exit $rc, want 1 and 'yee-plot-spectrum: error:' $out"
if [ -n "$site" ]; then
    # moved as a whole: _installed.py's paths are relative, so nothing points back to $p
    rm -rf "$2/moved" && mv "$p" "$2/moved" || fail "cannot move $p"
    m=$2/moved
    case "$site" in
        /*) fail "PY_SITE_DIR '$site' is absolute: this check moves the prefix" ;;
    esac
    [ -f "$m/$site/yee/__init__.py" ] && [ -f "$m/$site/yee/_installed.py" ] ||
        fail "the module yee or its _installed.py is not in $site"
    lib=$(find "$m" -path "*/yee/libyee.so" | head -1)
    [ -n "$lib" ] || fail "no <libdir>/yee/libyee.so installed"
    rm -rf "$2/pyrun"
    out=$(cd "$2" && env -u YEE_LIB -u YEE_BIN PYTHONPATH="$m/$site" "$python" -c '
import os, sys
import yee
m, lib = sys.argv[1], sys.argv[2]
assert yee.__file__.startswith(m + "/"), "imported %s, not the installed module" % yee.__file__
assert yee.library_path() == lib, "loads %s, not the installed %s" % (yee.library_path(), lib)
assert yee.program_path() == m + "/bin/yee", "program %s" % yee.program_path()
deck = yee.Deck.from_file(m + "/share/doc/yee/examples/dipole.cfg")
res = deck.set("simulation.time", 2.0).set("grid.resolution", 10).run("pyrun")
p = res.probe("far")
assert len(p["Ez"]) > 0 and os.path.isfile(res.h5), "no probe series"
print("module %s ran %d steps into %s" % (yee.version(), len(p["Ez"]), res.h5))
' "$m" "$lib" 2>&1) || fail "import yee from the installed prefix: $out"
    echo "$out"
fi
echo "ok: installed in $p${site:+ (the module used from $2/moved)}"
