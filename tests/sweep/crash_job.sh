#!/bin/sh
# Stands in for `yee` in a sweep (YEE_SWEEP_EXE=crash_job.sh, YEE_REAL=the real yee). The job
# whose deck path contains $YEE_CRASH_JOB (e.g. job-0002/) dies of SIGSEGV after one line of log;
# the one matching $YEE_FAIL_JOB prints an error and exits 1; every other job runs yee.
# $1 is "run", $2 the job's deck.
case "$2" in
*"${YEE_CRASH_JOB:-no crash}"*)
    echo "about to crash"
    kill -SEGV $$
    ;;
*"${YEE_FAIL_JOB:-no failure}"*)
    echo "yee: error: simulated failure" >&2
    exit 1
    ;;
esac
exec "$YEE_REAL" "$@"
