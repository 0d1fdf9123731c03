#!/bin/sh
# check_deb.sh SOURCE_DIR WORK_DIR -- build the Debian packages yee and python3-yee from a copy of
# the source tree (dpkg-buildpackage -b -us -uc, debian/), install both with apt-get as a user
# would, run the installed yee on an installed example deck and plot its output with an installed
# plotting command, run a deck through the installed Python module, check the man page and the
# declared dependencies, then remove the packages.
# Exits 77 (skipped) without root or without dpkg-buildpackage/debhelper: it installs a package.
set -u
src=$1
work=$2
fail() { echo "FAIL $*"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "SKIP needs root (apt-get install)"; exit 77; }
command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
    { echo "SKIP dpkg-buildpackage or debhelper missing (scripts/install-deps.sh installs them)"; exit 77; }
version=$(sed -n '1s/^yee (\([^)]*\)).*/\1/p' "$src/debian/changelog")
[ -n "$version" ] || fail "no version in debian/changelog"
rm -rf "$work" && mkdir -p "$work/yee-$version" || fail "cannot make $work"
# the tree as git sees it (tracked and untracked, not ignored): no build folders
(cd "$src" && git ls-files -co --exclude-standard -z) |
    (cd "$src" && xargs -0 cp --parents -t "$work/yee-$version") || fail "copying the tree"
cd "$work/yee-$version" || exit 1
dpkg-buildpackage -b -us -uc >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log"; fail "dpkg-buildpackage exited nonzero (log: $work/build.log)"; }
deb="$work/yee_${version}_amd64.deb"
pydeb="$work/python3-yee_${version}_amd64.deb"
[ -f "$deb" ] && [ -f "$pydeb" ] || fail "no $deb and $pydeb (got: $(ls "$work"))"
# what the package declares: the libraries yee links (from shlibs) and the Python stack
deps=$(dpkg-deb -f "$deb" Depends)
for d in libhdf5-openmpi libconfig libharminv openmpi-bin python3-h5py python3-matplotlib; do
    echo "$deps" | grep -q "$d" || fail "Depends lacks $d: $deps"
done
# python3-yee: the interpreter (dh_python3), numpy, the libraries libyee links (shlibs), and the
# yee of this very build; the module and libyee are in it, not in yee
pydeps=$(dpkg-deb -f "$pydeb" Depends)
for d in "python3" "python3-numpy" "python3-h5py" "libhdf5-openmpi" "yee (= $version)"; do
    echo "$pydeps" | grep -qF "$d" || fail "python3-yee Depends lacks '$d': $pydeps"
done
dpkg-deb -c "$pydeb" | grep -q "/usr/lib/python3/dist-packages/yee/_installed.py" &&
    dpkg-deb -c "$pydeb" | grep -q "/usr/lib/.*/yee/libyee.so" ||
    fail "python3-yee lacks the module or libyee: $(dpkg-deb -c "$pydeb")"
dpkg-deb -c "$deb" | grep -q "dist-packages\|libyee" && fail "yee holds python3-yee's files"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q -o DPkg::Lock::Timeout=600 "$deb" "$pydeb" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "apt-get install $deb $pydeb"; }
trap 'apt-get remove -y -q -o DPkg::Lock::Timeout=600 yee python3-yee >/dev/null 2>&1' EXIT
ok=1
cd "$work" || exit 1
/usr/bin/yee check /usr/share/doc/yee/examples/dipole.cfg >/dev/null || { echo "FAIL yee check"; ok=0; }
/usr/bin/yee run /usr/share/doc/yee/examples/dipole.cfg --set simulation.time=20.0 --out "$work/out" \
    --quiet || { echo "FAIL yee run"; ok=0; }
/usr/bin/yee-plot-spectrum "$work/out/dipole.h5" --probe far --out "$work/out/spectrum.png" \
    >/dev/null 2>&1 && [ -s "$work/out/spectrum.png" ] || { echo "FAIL yee-plot-spectrum"; ok=0; }
# Debian's python3, with nothing of the source or build tree in reach: the installed module
# must load the installed libyee (through yee/_installed.py) and run a deck
out=$(cd "$work" && env -u YEE_LIB -u YEE_BIN -u PYTHONPATH /usr/bin/python3 -c '
import os, glob
import yee
assert yee.__file__.startswith("/usr/lib/python3/dist-packages/yee/"), yee.__file__
lib = glob.glob("/usr/lib/*/yee/libyee.so")
assert [yee.library_path()] == lib, (yee.library_path(), lib)
assert yee.program_path() == "/usr/bin/yee", yee.program_path()
deck = yee.Deck.from_file("/usr/share/doc/yee/examples/dipole.cfg")
res = deck.set("simulation.time", 2.0).set("grid.resolution", 10).run("pyout")
n = len(res.probe("far")["Ez"])
assert n > 0 and os.path.isfile(res.h5)
print("python3-yee %s ran %d steps" % (yee.version(), n))
' 2>&1) || { echo "FAIL import yee from python3-yee: $out"; ok=0; }
man -w yee >/dev/null 2>&1 || [ -f /usr/share/man/man1/yee.1.gz ] || { echo "FAIL no man page"; ok=0; }
[ -f /usr/share/bash-completion/completions/yee ] || { echo "FAIL no bash completion"; ok=0; }
apt-get remove -y -q -o DPkg::Lock::Timeout=600 yee python3-yee >/dev/null 2>&1 ||
    { echo "FAIL apt-get remove"; ok=0; }
trap - EXIT
[ ! -e /usr/bin/yee ] || { echo "FAIL /usr/bin/yee left after remove"; ok=0; }
# dh_python3's prerm removes the byte-code it compiled at install: nothing of the module stays
[ ! -e /usr/lib/python3/dist-packages/yee ] ||
    { echo "FAIL left after remove: $(ls -R /usr/lib/python3/dist-packages/yee)"; ok=0; }
[ $ok = 1 ] || exit 1
echo "$out"
kib() { echo "$(basename "$1") ($(du -k "$1" | cut -f1) KiB)"; }
echo "ok: built, installed, ran and removed $(kib "$deb") and $(kib "$pydeb")"
