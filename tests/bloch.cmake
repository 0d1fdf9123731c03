# Bloch-periodic boundaries (boundary.bloch: complex fields as two real backends,
# kernels/backend_complex.c). The physics is validation/bloch (oblique slab vs Airy); these check
# the plumbing: the phase across ranks, checkpoints of both parts, an integer phase, deck errors.
set(YEE_BLOCH_SRC ${CMAKE_CURRENT_LIST_DIR}/bloch)
set(YEE_BLOCH_DIR ${CMAKE_CURRENT_BINARY_DIR}/bloch_files)
string(REPLACE ";" " " YEE_BLOCH_MPI "${YEE_MPIEXEC}")
set(YEE_BLOCH_RUN "'$<TARGET_FILE:yee>' run '${YEE_BLOCH_SRC}/bloch3d.cfg' --quiet")

# 4 ranks split across both Bloch axes (each rank's ghosts take the phase only where they
# cross the domain's face): the bytes of one rank.
yee_add_test(NAME bloch_mpi_2x2x1 LABELS mpi PROCESSORS 4 TIMEOUT 300
  COMMAND sh -c "rm -rf '${YEE_BLOCH_DIR}/mpi' && \
${YEE_BLOCH_RUN} --out '${YEE_BLOCH_DIR}/mpi/r1' && \
${YEE_BLOCH_MPI} -np 4 ${YEE_BLOCH_RUN} --ranks 2x2x1 --out '${YEE_BLOCH_DIR}/mpi/r4' && \
'${YEE_PYTHON}' '${CMAKE_CURRENT_LIST_DIR}/mpi/same_fields.py' \
'${YEE_BLOCH_DIR}/mpi/r1/bloch3d.h5' '${YEE_BLOCH_DIR}/mpi/r4/bloch3d.h5' bloch_2x2x1")

# Stopped by SIGTERM and restarted: the file of an uninterrupted run, bit for bit (both parts'
# fields, psi, polarizations and DFT sums are in the checkpoint).
yee_add_test(NAME checkpoint_bloch LABELS unit TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/checkpoint/restart.py $<TARGET_FILE:yee>
          ${YEE_BLOCH_SRC}/bloch3d.cfg ${YEE_BLOCH_DIR}/checkpoint term)
set_property(TEST checkpoint_bloch APPEND PROPERTY ENVIRONMENT "OMP_NUM_THREADS=1")

# k L = 1 on x and y: the factor is 1, the dipole has no phase, so the imaginary part stays 0
# and the complex run gives the real periodic run's bytes; k L = 0.9 must not.
set(YEE_BLOCH_CELL "'$<TARGET_FILE:yee>' run '${YEE_BLOCH_SRC}/dipole_cell.cfg' --quiet")
yee_add_test(NAME bloch_integer_phase LABELS physics TIMEOUT 300
  COMMAND sh -c "rm -rf '${YEE_BLOCH_DIR}/int' && \
${YEE_BLOCH_CELL} --out '${YEE_BLOCH_DIR}/int/real' && \
${YEE_BLOCH_CELL} --set 'boundary.bloch=[1.6666666666666667,2.0,0.0]' --out '${YEE_BLOCH_DIR}/int/one' && \
${YEE_BLOCH_CELL} --set 'boundary.bloch=[1.5,2.0,0.0]' --out '${YEE_BLOCH_DIR}/int/other' && \
'${YEE_PYTHON}' '${CMAKE_CURRENT_LIST_DIR}/mpi/same_fields.py' \
'${YEE_BLOCH_DIR}/int/real/cell.h5' '${YEE_BLOCH_DIR}/int/one/cell.h5' kL_1 && \
! '${YEE_PYTHON}' '${CMAKE_CURRENT_LIST_DIR}/mpi/same_fields.py' \
'${YEE_BLOCH_DIR}/int/real/cell.h5' '${YEE_BLOCH_DIR}/int/other/cell.h5' kL_0.9 >/dev/null")

yee_add_test(NAME bloch_needs_periodic LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh fail ${YEE_BLOCH_SRC} $<TARGET_FILE:yee> check
          bloch3d.cfg --set boundary.bloch=[0.0,0.0,0.2]
  PASS_REGEX "boundary.bloch: a Bloch wave vector along z needs periodic z faces .got kz = 0.2 with cpml boundaries.")
yee_add_test(NAME bloch_no_planewave LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh fail ${CMAKE_CURRENT_LIST_DIR}/checkpoint
          $<TARGET_FILE:yee> check ckpt.cfg --set boundary.x="periodic" --set boundary.bloch=[0.2,0.0,0.0]
  PASS_REGEX "ckpt.cfg:18: error: sources.0..type: a planewave has a real incident field without the Bloch phase")
