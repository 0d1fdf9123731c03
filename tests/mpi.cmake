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

# Ranks chosen by the solver: slabs along z (28 planes, at least 8 per rank), whose linked faces
# keep the fused steps (solver/decompose.h), so the run must say it took them.
yee_add_test(NAME mpi_identical_auto3 LABELS mpi PROCESSORS 3 TIMEOUT 300
  COMMAND sh -c "rm -rf '${YEE_MPI_DIR}/auto3' && mkdir -p '${YEE_MPI_DIR}' && \
${YEE_MPI_EXEC} -np 3 '$<TARGET_FILE:yee>' run '${YEE_MPI_SRC}/box.cfg' \
--out '${YEE_MPI_DIR}/auto3' > '${YEE_MPI_DIR}/auto3.log' 2>&1 && \
grep -q 'ran in fused sweeps' '${YEE_MPI_DIR}/auto3.log' && \
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

# Every example and validation deck, shortened, on 2, 3, 5, 6 and 7 ranks (the automatic
# split): the bytes of one rank (tests/mpi/ranks_agree.py). Three or more ranks stacked along a
# snapshot plane's axis used to abort the run, probes whose components straddle a cut had no
# owner, and a flux face edge on a cut lost a product (issue 16).
file(GLOB YEE_RANK_DECKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/inputs/*.cfg
     ${CMAKE_SOURCE_DIR}/validation/*/*.cfg)
list(REMOVE_ITEM YEE_RANK_DECKS ${CMAKE_SOURCE_DIR}/inputs/sweep_slab.cfg) # a sweep
list(FILTER YEE_RANK_DECKS EXCLUDE REGEX "/validation/modes/") # cross-sections for yee modes
list(APPEND YEE_RANK_DECKS ${YEE_MPI_SRC}/graded.cfg) # a graded mesh on every axis
foreach(deck ${YEE_RANK_DECKS})
  get_filename_component(stem ${deck} NAME_WE)
  get_filename_component(dir ${deck} DIRECTORY)
  get_filename_component(folder ${dir} NAME)
  set(args)
  if(stem STREQUAL "ring") # its probes see the pulse only after ~300 steps
    set(args --budget 3e8)
  endif()
  yee_add_test(NAME mpi_ranks_${folder}_${stem} LABELS mpi PROCESSORS 2 TIMEOUT 600
    COMMAND ${YEE_PYTHON} ${YEE_MPI_SRC}/ranks_agree.py --yee $<TARGET_FILE:yee>
            --mpiexec "${YEE_MPI_EXEC}" --deck ${deck}
            --work ${YEE_MPI_DIR}/ranks_${folder}_${stem} ${args})
endforeach()
# Cuts exactly on the planes of tests/mpi/boundaries.cfg (sources, snapshot planes, flux faces
# and edges, a DFT plane, probes), along each axis and in 2-D and 3-D splits.
yee_add_test(NAME mpi_ranks_boundaries LABELS mpi PROCESSORS 2 TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${YEE_MPI_SRC}/ranks_agree.py --yee $<TARGET_FILE:yee>
          --mpiexec "${YEE_MPI_EXEC}" --deck ${YEE_MPI_SRC}/boundaries.cfg
          --work ${YEE_MPI_DIR}/ranks_boundaries --ranks 2 3 4
          --splits 4x1x1 1x4x1 1x1x4 2x2x2 4x2x1 2x1x4 1x2x4)

# mpi_linked_NAME: ranks_agree.py on DECK with the remaining arguments (the splits), each MPI
# run required to take fused steps.
function(yee_linked_test name deck)
  string(REGEX REPLACE "^mpi_" "" work ${name})
  yee_add_test(NAME ${name} LABELS mpi PROCESSORS 2 TIMEOUT 120
    COMMAND ${YEE_PYTHON} ${YEE_MPI_SRC}/ranks_agree.py --yee $<TARGET_FILE:yee>
            --mpiexec "${YEE_MPI_EXEC}" --deck ${deck} --work ${YEE_MPI_DIR}/${work} ${ARGN}
            --expect "ran in fused sweeps")
endfunction()

# Slabs along z (--ranks 1x1xP) take fused steps: the backend exchanges the z faces inside its
# sweeps (setup.link, kernels/cpu/wavefront.c face_seams), and must print so, with the bytes of
# one rank: a cell periodic on all three axes (the top rank's neighbour is rank 0; x and y
# wrapped by each rank), and a CPML box with a plane wave (TFSF), a Drude sphere, a flux box and
# a DFT plane (tests/checkpoint/ckpt.cfg), cut on 2, 3 and 4 ranks (down to 6 planes each).
yee_linked_test(mpi_linked_periodic ${YEE_MPI_SRC}/boundaries.cfg
  --ranks --splits 1x1x2 1x1x3 1x1x4)
yee_linked_test(mpi_linked_tfsf ${CMAKE_CURRENT_LIST_DIR}/checkpoint/ckpt.cfg
  --ranks --splits 1x1x2 1x1x3 1x1x4)
# a Bloch cell (complex fields, both parts per message, the factor across the cell's z face)
yee_linked_test(mpi_linked_bloch ${YEE_MPI_SRC}/bloch_z.cfg
  --ranks --splits 1x1x2 1x1x3)
# ranks whose current lists allow different steps per advance call (solver/step.c): all make
# the fewest's calls
yee_linked_test(mpi_linked_step_lists ${CMAKE_SOURCE_DIR}/tests/schedules_lists.cfg
  --ranks --splits 1x1x2)
# and with 2 threads per rank: blocks of planes, their seams inside a rank, then the faces
yee_linked_test(mpi_linked_threads ${CMAKE_CURRENT_LIST_DIR}/checkpoint/ckpt.cfg
  --ranks --splits 1x1x2 --threads 2)
# 2-D runs cut into slabs along y (the automatic split of 2 ranks, 1xPx1): the same seams with
# rows for planes. Two plane waves of both polarizations on a TFSF box in CPML (down to 20 rows
# per rank; 2 threads per rank), and a Bloch cell periodic in x and y (tests/mpi/bloch_2d.cfg:
# complex fields, the factor across the cell's y face; 8 rows per rank on 4).
yee_linked_test(mpi_linked_2d ${CMAKE_CURRENT_LIST_DIR}/twod/tfsf2d.cfg
  --ranks 2 --splits 1x3x1 1x4x1)
yee_linked_test(mpi_linked_2d_threads ${CMAKE_CURRENT_LIST_DIR}/twod/tfsf2d.cfg
  --ranks --splits 1x2x1 --threads 2)
yee_linked_test(mpi_linked_2d_bloch ${YEE_MPI_SRC}/bloch_2d.cfg
  --ranks --splits 1x2x1 1x3x1 1x4x1)

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
