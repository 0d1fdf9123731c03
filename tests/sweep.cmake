# `yee sweep` (docs/sweeps.md): the expression evaluator and sweep section reader (unit), and the
# command end to end on tiny decks: a local run with --jobs and its resumption, a crashing job,
# flux results, the Slurm script executed task by task, mpirun farming, and the errors reported
# before any job starts. Every run is a fraction of a second on one core.
add_executable(yee_test_sweep_params ${CMAKE_CURRENT_LIST_DIR}/sweep/test_params.c)
target_link_libraries(yee_test_sweep_params PRIVATE yee_io)
yee_add_test(NAME sweep_params LABELS unit COMMAND yee_test_sweep_params
  PASS_REGEX "PASS sweep_params")

set(YEE_SWEEP_SRC ${CMAKE_CURRENT_LIST_DIR}/sweep)
set(YEE_SWEEP_DIR ${CMAKE_CURRENT_BINARY_DIR}/sweep_files)
set(YEE_SWEEP_CHECK ${YEE_PYTHON} ${YEE_SWEEP_SRC}/check_sweep.py $<TARGET_FILE:yee> ${YEE_SWEEP_DIR})

foreach(case local crash flux slurm lock script_safety)
  yee_add_test(NAME sweep_${case} LABELS unit TIMEOUT 120
    COMMAND ${YEE_SWEEP_CHECK} ${case} PASS_REGEX "PASS sweep_${case}")
endforeach()
yee_add_test(NAME sweep_mpi LABELS mpi PROCESSORS 2 TIMEOUT 180
  COMMAND ${YEE_SWEEP_CHECK} mpi ${YEE_MPIEXEC} PASS_REGEX "PASS sweep_mpi")
set_property(TEST sweep_mpi APPEND PROPERTY ENVIRONMENT "OMP_NUM_THREADS=1")

# Errors: each one exits non-zero with its message before any job runs.
set(YEE_SWEEP_EXPECT sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh fail ${YEE_SWEEP_SRC} $<TARGET_FILE:yee>)
yee_add_test(NAME sweep_error_unknown_parameter LABELS unit
  COMMAND ${YEE_SWEEP_EXPECT} sweep bad_param.cfg --out ${YEE_SWEEP_DIR}/bad_param
  PASS_REGEX "bad_param.cfg:11: error: unknown parameter 'thikness' in \\$\\{2\\*thikness \\+ 0\\.1\\} \\(did you mean 'thickness'\\?\\)")
yee_add_test(NAME sweep_error_sweep_key LABELS unit
  COMMAND ${YEE_SWEEP_EXPECT} sweep bad_key.cfg --out ${YEE_SWEEP_DIR}/bad_key
  PASS_REGEX "bad_key.cfg:5: error: sweep.results\\[0\\].wavelenght: unknown key, did you mean `wavelength`\\?")
yee_add_test(NAME sweep_error_int_float LABELS unit
  COMMAND ${YEE_SWEEP_EXPECT} sweep bad_int.cfg --out ${YEE_SWEEP_DIR}/bad_int
  PASS_REGEX "job-0001/deck.cfg:7: error: simulation.steps: must be an integer \\(got 50.0\\).*every job's deck is invalid")
yee_add_test(NAME sweep_error_out_dir LABELS unit
  COMMAND ${YEE_SWEEP_EXPECT} sweep cavity.cfg --out ${YEE_SWEEP_SRC}/cavity.cfg/out
  PASS_REGEX "yee sweep: error: the output directory is not usable: cannot create directory '.*cavity.cfg/out': Not a directory")
yee_add_test(NAME sweep_error_run_sweep_deck LABELS unit
  COMMAND ${YEE_SWEEP_EXPECT} run cavity.cfg
  PASS_REGEX "cavity.cfg:21: error: \\$\\{a\\} is a sweep parameter: run this deck with `yee sweep cavity.cfg --out DIR`")
yee_add_test(NAME sweep_error_check_sweep_key LABELS unit
  COMMAND ${YEE_SWEEP_EXPECT} check bad_key_plain.cfg
  PASS_REGEX "bad_key_plain.cfg:3: error: sweep.parameters\\[0\\].nmae: unknown key, did you mean `name`\\?")

# Jobs of a few ms per step must not spin OpenMP barriers when the test machine is loaded.
get_property(yee_sweep_tests DIRECTORY PROPERTY TESTS)
foreach(t ${yee_sweep_tests})
  if(t MATCHES "^sweep_")
    set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "OMP_WAIT_POLICY=passive")
  endif()
endforeach()

# The example sweep deck of inputs/: six slab runs, T at 1 um against Airy.
yee_add_test(NAME sweep_slab_example LABELS unit examples TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${YEE_SWEEP_SRC}/check_slab_example.py $<TARGET_FILE:yee>
          ${CMAKE_SOURCE_DIR}/inputs/sweep_slab.cfg ${YEE_SWEEP_DIR}/slab_example)
