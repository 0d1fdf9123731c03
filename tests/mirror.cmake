# Mirror symmetry (pmc and pec low faces as mirror planes): the eighth of a symmetric deck equals
# the whole domain in every snapshot and, with weight = 8, in its flux box (tests/mirror); the
# eighth on 4 ranks (the walls on the ranks that own cell 0) gives the 1-rank bytes.
yee_add_test(NAME mirror_eighth LABELS physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/mirror/check_mirror.py --yee $<TARGET_FILE:yee>
          --work ${CMAKE_CURRENT_BINARY_DIR}/mirror)
string(REPLACE ";" " " YEE_MIRROR_MPI "${YEE_MPIEXEC}")
yee_add_test(NAME mirror_mpi_2x1x2 LABELS mpi PROCESSORS 4 TIMEOUT 300
  COMMAND sh -c "rm -rf '${CMAKE_CURRENT_BINARY_DIR}/mirror_mpi' && \
'$<TARGET_FILE:yee>' run '${CMAKE_CURRENT_LIST_DIR}/mirror/mirror_eighth.cfg' --quiet \
--out '${CMAKE_CURRENT_BINARY_DIR}/mirror_mpi/r1' && \
${YEE_MIRROR_MPI} -np 4 '$<TARGET_FILE:yee>' run '${CMAKE_CURRENT_LIST_DIR}/mirror/mirror_eighth.cfg' \
--quiet --ranks 2x1x2 --out '${CMAKE_CURRENT_BINARY_DIR}/mirror_mpi/r4' && \
'${YEE_PYTHON}' '${CMAKE_CURRENT_LIST_DIR}/mpi/same_fields.py' \
'${CMAKE_CURRENT_BINARY_DIR}/mirror_mpi/r1/mirror_eighth.h5' \
'${CMAKE_CURRENT_BINARY_DIR}/mirror_mpi/r4/mirror_eighth.h5' 2x1x2")
