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
# One polarization (simulation.polarization, auto from the sources) advances only its three
# components (kernels/yee_cell.h *_tm2d, *_te2d): the bytes of the run that advances all six.
set(YEE_TWOD_POL_DIR ${CMAKE_CURRENT_BINARY_DIR}/twod_pol)
set(YEE_TWOD_POL_tm "--set 'sources[1].component=\"Ez\"' \
--set 'monitors[0].components=[\"Ez\",\"Hx\",\"Hy\"]' --set 'monitors[2].components=[\"Ez\"]'")
set(YEE_TWOD_POL_te "--set 'sources[0].component=\"Ey\"' \
--set 'monitors[0].components=[\"Ex\",\"Ey\",\"Hz\"]' --set 'monitors[2].components=[\"Hz\"]'")
foreach(pol tm te)
  string(TOUPPER ${pol} POL)
  set(deck "'${CMAKE_CURRENT_LIST_DIR}/twod/rod2d.cfg' ${YEE_TWOD_POL_${pol}}")
  yee_add_test(NAME twod_polarization_${pol} LABELS physics TIMEOUT 300
    COMMAND sh -c "rm -rf '${YEE_TWOD_POL_DIR}/${pol}' && \
'$<TARGET_FILE:yee>' check ${deck} | grep -q '^fields      ${POL}:' && \
'$<TARGET_FILE:yee>' run ${deck} --quiet --out '${YEE_TWOD_POL_DIR}/${pol}/one' && \
'$<TARGET_FILE:yee>' run ${deck} --quiet --set 'simulation.polarization=\"both\"' \
--out '${YEE_TWOD_POL_DIR}/${pol}/both' && \
'${YEE_PYTHON}' '${CMAKE_CURRENT_LIST_DIR}/mpi/same_fields.py' \
'${YEE_TWOD_POL_DIR}/${pol}/both/rod2d.h5' '${YEE_TWOD_POL_DIR}/${pol}/one/rod2d.h5' ${pol}")
endforeach()
# ... and stores only those three (and their CPML halves): the memory yee run reports.
yee_add_test(NAME twod_polarization_memory LABELS physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/twod/check_memory.py $<TARGET_FILE:yee>
          ${CMAKE_CURRENT_LIST_DIR}/twod/rod2d.cfg ${CMAKE_CURRENT_BINARY_DIR}/twod_memory)
# A TM run's checkpoint has no parts for Ex, Ey, Hz and the CPML halves it does not keep: stopped
# by SIGTERM and restarted, it gives the uninterrupted run's file bit for bit.
yee_add_test(NAME checkpoint_twod_tm LABELS unit TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/checkpoint/restart.py $<TARGET_FILE:yee>
          ${CMAKE_CURRENT_LIST_DIR}/checkpoint/ckpt_tm2d.cfg
          ${CMAKE_CURRENT_BINARY_DIR}/twod_checkpoint term)
