#!/bin/sh
# Stands in for mpirun in `yee sweep --ranks-per-job` tests (YEE_SWEEP_MPIRUN): appends its
# arguments to $YEE_TEST_LOG, then runs the real launcher ($YEE_TEST_MPIRUN, default mpirun).
echo "$*" >> "$YEE_TEST_LOG"
exec "${YEE_TEST_MPIRUN:-mpirun}" "$@"
