#!/bin/sh
# Stands in for `yee` in a sweep (YEE_SWEEP_EXE=slow_job.sh, YEE_REAL=the real yee). The job whose
# deck path contains $YEE_SLOW_JOB (e.g. job-0001/) writes "start" into its directory's
# slow.started and then waits until the test creates slow.go in that directory, so a test can act
# while the job is certainly running; every other job runs yee at once. $1 is "run", $2 the deck.
case "$2" in
*"${YEE_SLOW_JOB:-no slow job}"*)
    dir=$(dirname "$2")
    echo start >> "$dir/slow.started"
    while [ ! -e "$dir/slow.go" ]; do sleep 0.05; done
    ;;
esac
exec "$YEE_REAL" "$@"
