# Output tests: HDF5 + XDMF round trip (1 rank, 2 ranks), legacy VTK round trip, HDF5 error path,
# output on a graded mesh (1 rank, 2 ranks, restarts).
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

# A graded mesh (tests/output/graded.cfg, z graded) and its uniform twin: /mesh lines, node
# coordinates of every snapshot and DFT dataset, XDMF 3DRectMesh/VXVYVZ vs 3DCoRectMesh, VTK
# RECTILINEAR_GRID read back by VTK, export-vtk byte for byte, the Python readers.
yee_add_test(NAME output_graded LABELS unit TIMEOUT 180
  COMMAND ${YEE_PYTHON} ${YEE_OUT_SRC}/check_graded.py $<TARGET_FILE:yee>
          ${YEE_OUT_SRC}/graded.cfg ${YEE_OUT_DIR}/graded_1)

# The same on 2 ranks too: the collective coordinate writes give the 1-rank file's coordinates,
# attributes and XDMF.
yee_add_test(NAME output_graded_mpi2 LABELS mpi PROCESSORS 2 TIMEOUT 240
  COMMAND ${YEE_PYTHON} ${YEE_OUT_SRC}/check_graded.py $<TARGET_FILE:yee>
          ${YEE_OUT_SRC}/graded.cfg ${YEE_OUT_DIR}/graded_2 --mpi ${YEE_MPIEXEC})

# Restarts on a graded mesh (tests/checkpoint/restart.py): the reopened file already has the
# coordinate datasets; the restarted run must end with the uninterrupted run's file, bit for bit.
foreach(mode term kill)
  yee_add_test(NAME output_graded_restart_${mode} LABELS unit TIMEOUT 300
    COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/checkpoint/restart.py $<TARGET_FILE:yee>
            ${YEE_OUT_SRC}/graded_restart.cfg ${YEE_OUT_DIR}/graded_restart_${mode} ${mode})
  set_property(TEST output_graded_restart_${mode} APPEND PROPERTY ENVIRONMENT "OMP_NUM_THREADS=1")
endforeach()

# Subpixel averaging on a graded mesh averages each E node's own dual cell: a film face between
# a fine cell and a wider ramp cell gets the glass fraction of that cell, not 1/2.
yee_add_test(NAME output_graded_geometry LABELS unit TIMEOUT 60
  COMMAND ${YEE_PYTHON} ${YEE_OUT_SRC}/check_graded_geometry.py $<TARGET_FILE:yee>
          ${YEE_OUT_SRC}/graded_geometry.cfg ${YEE_OUT_DIR}/graded_geometry)
