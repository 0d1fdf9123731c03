# Checkpoint/restart (docs/checkpoint.md): a run stopped by SIGTERM, killed, or checkpointed on
# SIGUSR1 and continued with --restart ends with the same output file as an uninterrupted run,
# bit for bit (tests/checkpoint/restart.py); on 2 MPI ranks too (label mpi) and on a GPU
# (label gpu, exit 77 without one); checkpoints of another run are refused with what differs.
set(YEE_CKPT_SRC ${CMAKE_CURRENT_LIST_DIR}/checkpoint)
set(YEE_CKPT_DIR ${CMAKE_CURRENT_BINARY_DIR}/checkpoint_files)

foreach(mode term kill usr1 mismatch)
  yee_add_test(NAME checkpoint_${mode} LABELS unit TIMEOUT 300
    COMMAND ${YEE_PYTHON} ${YEE_CKPT_SRC}/restart.py $<TARGET_FILE:yee> ${YEE_CKPT_SRC}/ckpt.cfg
            ${YEE_CKPT_DIR}/${mode} ${mode})
  # one thread: each test is three short runs, and spinning threads on a busy 2-core CI
  # machine make them slower, not faster
  set_property(TEST checkpoint_${mode} APPEND PROPERTY ENVIRONMENT "OMP_NUM_THREADS=1")
endforeach()

yee_add_test(NAME checkpoint_mpi LABELS mpi PROCESSORS 2 TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${YEE_CKPT_SRC}/restart.py $<TARGET_FILE:yee> ${YEE_CKPT_SRC}/ckpt.cfg
          ${YEE_CKPT_DIR}/mpi mpi ${YEE_MPIEXEC})
set_property(TEST checkpoint_mpi APPEND PROPERTY ENVIRONMENT "OMP_NUM_THREADS=1;OMP_WAIT_POLICY=passive")

yee_add_test(NAME checkpoint_gpu LABELS gpu SKIP77 TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${YEE_CKPT_SRC}/restart.py $<TARGET_FILE:yee> ${YEE_CKPT_SRC}/ckpt.cfg
          ${YEE_CKPT_DIR}/gpu gpu)
set_tests_properties(checkpoint_gpu PROPERTIES RESOURCE_GROUPS "gpus:1")

# The deck keys: a negative interval and a misspelled key are deck errors.
yee_add_test(NAME checkpoint_bad_interval LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh fail ${YEE_CKPT_SRC} $<TARGET_FILE:yee> check
          ckpt.cfg --set checkpoint.interval=-1
  PASS_REGEX "--set checkpoint.interval=-1: error: checkpoint.interval: must be >= 0 .got -1.")
yee_add_test(NAME checkpoint_bad_key LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh fail ${YEE_CKPT_SRC} $<TARGET_FILE:yee> check
          ckpt.cfg --set checkpoint.intervall=5
  PASS_REGEX "checkpoint.intervall: unknown key, did you mean .interval.")
