#!/bin/sh
# Runs every example and validation deck (whole length, default backend) with the given yee and
# prints one digest per deck (scripts/output_digest.py): two builds that print the same lines
# wrote the same results. usage: scripts/deck_digests.sh YEE WORKDIR [yee run options...]
set -eu
yee=$1
work=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
for deck in "$here"/inputs/*.cfg "$here"/validation/*/*.cfg; do
    case $deck in *sweep_slab.cfg) continue ;; esac
    rel=${deck#"$here"/}
    out=$work/$(echo "$rel" | tr / _ | sed 's/\.cfg$//')
    rm -rf "$out"
    "$yee" run "$deck" --out "$out" --quiet "$@"
    printf '%s  %s\n' "$(/usr/bin/python3 "$here/scripts/output_digest.py" "$out" | cut -d' ' -f1)" "$rel"
done
