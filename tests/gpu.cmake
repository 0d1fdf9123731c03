# CPU vs CUDA parity (label gpu): exit 77 = skipped where no CUDA backend or device exists.
add_executable(yee_parity ${CMAKE_CURRENT_SOURCE_DIR}/gpu/parity.c)
target_link_libraries(yee_parity PRIVATE yee_solver)
# The example (CPML), a PEC cavity, the CPML reflection deck and the all-boundaries MPI deck
# (CPML, periodic, PEC faces, two sources).
foreach(deck inputs/dipole.cfg validation/cavity/cavity.cfg validation/cpml/cpml.cfg tests/mpi/box.cfg)
  get_filename_component(stem ${deck} NAME_WE)
  yee_add_test(NAME gpu_parity_${stem}
    COMMAND yee_parity ${CMAKE_SOURCE_DIR}/${deck} 500
    LABELS gpu SKIP77 TIMEOUT 600)
  set_tests_properties(gpu_parity_${stem} PROPERTIES RESOURCE_GROUPS "gpus:1")
endforeach()

# The halo exchange on the CUDA backend (faces packed on the device, copied through pinned host
# buffers or handed to a CUDA-aware MPI, the interior updated while they travel): the
# all-boundaries deck on 2 and 4 CUDA ranks (sharing the devices there are) writes the bytes of
# 1 CUDA rank. Skipped (77) where the CUDA backend cannot run.
string(REPLACE ";" " " YEE_GPU_MPI_EXEC "${YEE_MPIEXEC}")
set(YEE_GPU_MPI_DIR ${CMAKE_CURRENT_BINARY_DIR}/gpu_mpi_files)
set(YEE_GPU_MPI_RUN "'$<TARGET_FILE:yee>' run '${CMAKE_SOURCE_DIR}/tests/mpi/box.cfg' --quiet --backend cuda")
yee_add_test(NAME gpu_mpi_identical LABELS gpu SKIP77 TIMEOUT 300
  COMMAND sh -c "'$<TARGET_FILE:yee>' bench --backend cuda --size 24 --steps 1 --repeat 1 \
>/dev/null 2>&1 || exit 77 && d='${YEE_GPU_MPI_DIR}' && rm -rf \"$d\" && \
${YEE_GPU_MPI_RUN} --out \"$d/r1\" && \
${YEE_GPU_MPI_EXEC} -np 2 ${YEE_GPU_MPI_RUN} --ranks 2x1x1 --out \"$d/r2\" && \
${YEE_GPU_MPI_EXEC} -np 4 ${YEE_GPU_MPI_RUN} --ranks 1x2x2 --out \"$d/r4\" && \
'${YEE_PYTHON}' '${CMAKE_SOURCE_DIR}/tests/mpi/same_fields.py' \"$d/r1/box.h5\" \"$d/r2/box.h5\" 2x1x1 && \
'${YEE_PYTHON}' '${CMAKE_SOURCE_DIR}/tests/mpi/same_fields.py' \"$d/r1/box.h5\" \"$d/r4/box.h5\" 1x2x2")
set_tests_properties(gpu_mpi_identical PROPERTIES RESOURCE_GROUPS "gpus:1")
