#!/bin/sh
# expect.sh ok|fail|status=N DIR COMMAND ARGS... -- run COMMAND in DIR (so decks are named as
# the user would name them, e.g. bad_x.cfg) and print its output for ctest's
# PASS_REGULAR_EXPRESSION. PASS_REGULAR_EXPRESSION makes ctest ignore the exit status, so it is
# checked here: when the status is not the expected one (non-zero for fail, 0 for ok, exactly N
# for status=N) the output is withheld, and the regex cannot match.
mode=$1
dir=$2
shift 2
cd "$dir" || exit 2
out=$("$@" 2>&1)
rc=$?
case $mode in
fail) [ "$rc" -ne 0 ] || { echo "expect.sh: '$*' exited 0 but should have failed"; exit 1; } ;;
ok) [ "$rc" -eq 0 ] || { echo "expect.sh: '$*' exited $rc but should have succeeded"; exit 1; } ;;
status=*)
    [ "$rc" -eq "${mode#status=}" ] ||
        { echo "expect.sh: '$*' exited $rc, wanted ${mode#status=}"; exit 1; } ;;
*) echo "expect.sh: unknown mode '$mode'"; exit 2 ;;
esac
printf '%s\n' "$out"
exit 0
