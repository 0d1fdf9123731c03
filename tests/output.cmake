# Output tests: HDF5 + XDMF round trip (1 rank, 2 ranks), legacy VTK round trip, HDF5 error path.
# Drivers in tests/output/ write files with analytic values; Python checks (Debian h5py, numpy,
# vtk) read them back with independent readers. Each test writes into its own folder.
set(YEE_OUT_SRC ${CMAKE_CURRENT_LIST_DIR}/output)
set(YEE_OUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/output_files)

add_executable(yee_test_h5_roundtrip ${YEE_OUT_SRC}/h5_roundtrip.c)
target_link_libraries(yee_test_h5_roundtrip PRIVATE yee_io MPI::MPI_C)
add_executable(yee_test_vtk_roundtrip ${YEE_OUT_SRC}/vtk_roundtrip.c)
target_link_libraries(yee_test_vtk_roundtrip PRIVATE yee_io)

string(REPLACE ";" " " YEE_OUT_MPIEXEC "${YEE_MPIEXEC}")
set(YEE_OUT_H5 $<TARGET_FILE:yee_test_h5_roundtrip>)

# 1 rank: write, then check layout, values, attributes and the .xmf with h5py + xml.etree.
yee_add_test(NAME output_h5_roundtrip LABELS unit TIMEOUT 120
  COMMAND sh -c "rm -rf '${YEE_OUT_DIR}/h5_1' && mkdir -p '${YEE_OUT_DIR}/h5_1' && \
'${YEE_OUT_H5}' '${YEE_OUT_DIR}/h5_1/rt.h5' && \
'${YEE_PYTHON}' '${YEE_OUT_SRC}/check_h5.py' '${YEE_OUT_DIR}/h5_1/rt.h5'")

# 2 ranks writing disjoint z halves (one rank empty on the plane monitor, probe on rank 1):
# the file must hold exactly what the 1-rank file holds.
yee_add_test(NAME output_h5_roundtrip_mpi2 LABELS mpi PROCESSORS 2 TIMEOUT 180
  COMMAND sh -c "rm -rf '${YEE_OUT_DIR}/h5_2' && mkdir -p '${YEE_OUT_DIR}/h5_2' && \
${YEE_OUT_MPIEXEC} -np 2 '${YEE_OUT_H5}' '${YEE_OUT_DIR}/h5_2/rt.h5' && \
'${YEE_OUT_H5}' '${YEE_OUT_DIR}/h5_2/ref.h5' && \
'${YEE_PYTHON}' '${YEE_OUT_SRC}/check_h5.py' '${YEE_OUT_DIR}/h5_2/rt.h5' \
--same-as '${YEE_OUT_DIR}/h5_2/ref.h5'")

# Legacy VTK read back by VTK's own reader.
yee_add_test(NAME output_vtk_roundtrip LABELS unit TIMEOUT 120
  COMMAND sh -c "rm -rf '${YEE_OUT_DIR}/vtk' && mkdir -p '${YEE_OUT_DIR}/vtk' && \
'$<TARGET_FILE:yee_test_vtk_roundtrip>' '${YEE_OUT_DIR}/vtk/field.vtk' && \
'${YEE_PYTHON}' '${YEE_OUT_SRC}/check_vtk.py' '${YEE_OUT_DIR}/vtk/field.vtk'")

# Creating the file in a missing directory is YEE_ERR_IO naming the path, not a crash.
yee_add_test(NAME output_h5_error LABELS unit TIMEOUT 60
  PASS_REGEX "PASS h5_error cannot create '[^']*/missing/x\\.h5': "
  COMMAND ${YEE_OUT_H5} --error ${YEE_OUT_DIR})
