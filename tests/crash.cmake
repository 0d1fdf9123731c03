# Crashes and faults (docs/output.md "Crashes and full disks"): a run killed by SIGKILL keeps
# every flushed frame, bit for bit, with its labels; SIGTERM checkpoints and the restart ends as
# an uninterrupted run; a dead rank ends the job; a blow-up and a full disk end the run with exit
# 1 and a message, not a signal, and keep the earlier frames; 10 000 frames fit (the labels are
# datasets). tests/crash/crash.py says what each mode checks; 1 and 2 ranks.
set(YEE_CRASH_SRC ${CMAKE_CURRENT_LIST_DIR}/crash)
set(YEE_CRASH_DIR ${CMAKE_CURRENT_BINARY_DIR}/crash_files)

foreach(mode kill term rankdeath nan diskfull frames)
  if(mode STREQUAL "diskfull")
    set(skip SKIP77) # mounting a tmpfs needs root
  else()
    set(skip "")
  endif()
  if(NOT mode STREQUAL "rankdeath") # a rank death needs two ranks
    yee_add_test(NAME crash_${mode} LABELS output crash ${skip} TIMEOUT 120
      COMMAND ${YEE_PYTHON} ${YEE_CRASH_SRC}/crash.py $<TARGET_FILE:yee> ${YEE_CRASH_SRC}
              ${YEE_CRASH_DIR}/${mode} ${mode})
    set_property(TEST crash_${mode} APPEND PROPERTY ENVIRONMENT "OMP_NUM_THREADS=1")
  endif()
  yee_add_test(NAME crash_${mode}_mpi2 LABELS mpi crash ${skip} PROCESSORS 2 TIMEOUT 180
    COMMAND ${YEE_PYTHON} ${YEE_CRASH_SRC}/crash.py $<TARGET_FILE:yee> ${YEE_CRASH_SRC}
            ${YEE_CRASH_DIR}/${mode}_mpi2 ${mode} ${YEE_MPIEXEC})
  set_property(TEST crash_${mode}_mpi2 APPEND PROPERTY ENVIRONMENT
               "OMP_NUM_THREADS=1;OMP_WAIT_POLICY=passive")
endforeach()
