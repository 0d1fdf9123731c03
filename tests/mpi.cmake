# MPI decomposition: the same deck on 1 rank and on 2, 4, 8 ranks in 1D, 2D and 3D splits gives
# bit-identical snapshots and probes (label mpi; CI runs them with --oversubscribe).
set(YEE_MPI_SRC ${CMAKE_CURRENT_LIST_DIR}/mpi)
set(YEE_MPI_DIR ${CMAKE_CURRENT_BINARY_DIR}/mpi_files)
string(REPLACE ";" " " YEE_MPI_EXEC "${YEE_MPIEXEC}")
set(YEE_MPI_RUN "'$<TARGET_FILE:yee>' run '${YEE_MPI_SRC}/box.cfg' --quiet")

yee_add_test(NAME mpi_reference LABELS mpi TIMEOUT 120
  COMMAND sh -c "rm -rf '${YEE_MPI_DIR}/r1' && ${YEE_MPI_RUN} --out '${YEE_MPI_DIR}/r1'")
set_tests_properties(mpi_reference PROPERTIES FIXTURES_SETUP yee_mpi_ref)

foreach(split 2x1x1 1x2x1 1x1x2 2x2x1 1x2x2 2x2x2 4x1x1)
  string(REGEX MATCHALL "[0-9]+" parts ${split})
  list(GET parts 0 px)
  list(GET parts 1 py)
  list(GET parts 2 pz)
  math(EXPR np "${px} * ${py} * ${pz}")
  yee_add_test(NAME mpi_identical_${split} LABELS mpi PROCESSORS ${np} TIMEOUT 300
    COMMAND sh -c "rm -rf '${YEE_MPI_DIR}/r${split}' && \
${YEE_MPI_EXEC} -np ${np} ${YEE_MPI_RUN} --ranks ${split} --out '${YEE_MPI_DIR}/r${split}' && \
'${YEE_PYTHON}' '${YEE_MPI_SRC}/same_fields.py' '${YEE_MPI_DIR}/r1/box.h5' \
'${YEE_MPI_DIR}/r${split}/box.h5' ${split}")
  set_tests_properties(mpi_identical_${split} PROPERTIES FIXTURES_REQUIRED yee_mpi_ref)
endforeach()

# Ranks chosen by MPI_Dims_create.
yee_add_test(NAME mpi_identical_auto3 LABELS mpi PROCESSORS 3 TIMEOUT 300
  COMMAND sh -c "rm -rf '${YEE_MPI_DIR}/auto3' && \
${YEE_MPI_EXEC} -np 3 ${YEE_MPI_RUN} --out '${YEE_MPI_DIR}/auto3' && \
'${YEE_PYTHON}' '${YEE_MPI_SRC}/same_fields.py' '${YEE_MPI_DIR}/r1/box.h5' \
'${YEE_MPI_DIR}/auto3/box.h5' auto3")
set_tests_properties(mpi_identical_auto3 PROPERTIES FIXTURES_REQUIRED yee_mpi_ref)

# The same split with the exchange not overlapped (exchange, then update) and CUDA-aware MPI
# forced on, which the CPU backend answers with host buffers: the same bytes again.
yee_add_test(NAME mpi_identical_2x2x2_plain LABELS mpi PROCESSORS 8 TIMEOUT 300
  COMMAND sh -c "rm -rf '${YEE_MPI_DIR}/plain' && YEE_HALO_OVERLAP=0 YEE_CUDA_AWARE_MPI=1 \
${YEE_MPI_EXEC} -x YEE_HALO_OVERLAP -x YEE_CUDA_AWARE_MPI -np 8 ${YEE_MPI_RUN} --ranks 2x2x2 \
--out '${YEE_MPI_DIR}/plain' && '${YEE_PYTHON}' '${YEE_MPI_SRC}/same_fields.py' \
'${YEE_MPI_DIR}/r1/box.h5' '${YEE_MPI_DIR}/plain/box.h5' plain")
set_tests_properties(mpi_identical_2x2x2_plain PROPERTIES FIXTURES_REQUIRED yee_mpi_ref)

# One OpenMP thread per rank: CI has 2 cores, and spinning threads of 8 oversubscribed ranks
# would starve each other.
get_property(yee_mpi_tests DIRECTORY PROPERTY TESTS)
foreach(t ${yee_mpi_tests})
  if(t MATCHES "^mpi_")
    set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "OMP_NUM_THREADS=1;OMP_WAIT_POLICY=passive")
  endif()
endforeach()

# A rank that fails during setup makes every rank stop with that rank's message (no hang).
yee_add_test(NAME mpi_rank_failure LABELS mpi PROCESSORS 3 TIMEOUT 60
  COMMAND sh -c "YEE_FAULT_RANK=2 ${YEE_MPI_EXEC} -x YEE_FAULT_RANK -np 3 ${YEE_MPI_RUN} --out '${YEE_MPI_DIR}/fault' 2>&1 || echo exit=$?"
  PASS_REGEX "yee: error: rank 2: cannot allocate the fields .simulated by YEE_FAULT_RANK..*exit=1")
set_property(TEST mpi_rank_failure APPEND PROPERTY ENVIRONMENT "OMP_NUM_THREADS=1")
