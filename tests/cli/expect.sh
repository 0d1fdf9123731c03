#!/bin/sh
# usage: expect.sh RC PATTERN COMMAND [ARGS...]
# Runs COMMAND, shows its output, and passes only when it exits with status RC and its combined
# stdout+stderr matches the extended regular expression PATTERN (ctest's PASS_REGULAR_EXPRESSION
# alone would ignore the exit status).
want_rc=$1
pattern=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$want_rc" ]; then
    echo "FAIL expect: exit status $rc, wanted $want_rc"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
    echo "FAIL expect: output does not match /$pattern/"
    exit 1
fi
echo "PASS expect (exit $rc, /$pattern/)"
