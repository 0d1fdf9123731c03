# 2-D runs (grid.size z = 0): equal to a one-cell-thick periodic 3-D run of the same physics
# (tests/twod), and on 2 ranks (split in x-y) bit-identical to one rank.
yee_add_test(NAME twod_equals_3d LABELS physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/twod/check_twod.py --yee $<TARGET_FILE:yee>
          --work ${CMAKE_CURRENT_BINARY_DIR}/twod)
string(REPLACE ";" " " YEE_TWOD_MPI "${YEE_MPIEXEC}")
set(YEE_TWOD_RUN "'$<TARGET_FILE:yee>' run '${CMAKE_CURRENT_LIST_DIR}/twod/rod2d.cfg' --quiet")
yee_add_test(NAME twod_mpi_2 LABELS mpi PROCESSORS 2 TIMEOUT 300
  COMMAND sh -c "rm -rf '${CMAKE_CURRENT_BINARY_DIR}/twod_mpi' && \
${YEE_TWOD_RUN} --out '${CMAKE_CURRENT_BINARY_DIR}/twod_mpi/r1' && \
${YEE_TWOD_MPI} -np 2 ${YEE_TWOD_RUN} --out '${CMAKE_CURRENT_BINARY_DIR}/twod_mpi/r2' && \
'${YEE_PYTHON}' '${CMAKE_CURRENT_LIST_DIR}/mpi/same_fields.py' \
'${CMAKE_CURRENT_BINARY_DIR}/twod_mpi/r1/rod2d.h5' '${CMAKE_CURRENT_BINARY_DIR}/twod_mpi/r2/rod2d.h5' 2d")
