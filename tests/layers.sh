#!/bin/sh
# The layers of docs/design.md "Map": each folder includes only its own headers and those of the
# folders below it. A file that reaches up (kernels including solver/, io including solver/, ...)
# fails this test with its name and the include.
# usage: layers.sh SOURCE_ROOT
set -u
root=$1
allowed() { # folder -> the folders it may include
    case $1 in
        common) echo "common" ;;
        model) echo "model common" ;;
        kernels) echo "kernels model common" ;;
        geometry) echo "geometry model common" ;;
        io) echo "io model common" ;;
        solver) echo "solver kernels geometry io model common" ;;
        postproc) echo "postproc io model common" ;;
        app) echo "app solver postproc kernels geometry io model common" ;;
        python) echo "python solver postproc kernels geometry io model common" ;; # libyee's C API
    esac
}
bad=0
for dir in common model kernels geometry io solver postproc app python; do
    ok=$(allowed $dir)
    for f in $(find "$root/$dir" -name '*.[ch]' -o -name '*.cu' -o -name '*.cpp'); do
        for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*/\1/p' "$f" | sort -u); do
            case " $ok " in
                *" $inc "*) ;;
                *) echo "FAIL ${f#"$root"/} includes $inc/ (a $dir file may include: $ok)"; bad=1 ;;
            esac
        done
    done
done
[ $bad -eq 0 ] && echo "PASS every folder includes only itself and the layers below"
exit $bad
