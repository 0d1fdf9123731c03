# Voxel import (geometry type "voxels": io/deck_voxels.c reads the data, geometry/ rasterizes
# it). The fixture (tests/voxels/make_voxels.py) copies the decks of tests/voxels/ into a build folder and
# writes their HDF5 data next to them, so nothing binary is checked in. Then:
#  - voxels_geometry: `yee check --geometry` of a box of eps 4 drawn from permittivity voxels and
#    from material-index voxels equals, bit for bit, the same box as a plain `box` (subpixel
#    averaging on and off);
#  - voxels_error_*: bad data, each with its exact message, as in tests/errors/cases.txt (the
#    missing-file case lives there: it needs no data).
set(YEE_VOX_SRC ${CMAKE_CURRENT_LIST_DIR}/voxels)
set(YEE_VOX_DIR ${CMAKE_CURRENT_BINARY_DIR}/voxels_files)

yee_add_test(NAME voxels_setup LABELS unit TIMEOUT 60
  COMMAND ${YEE_PYTHON} ${YEE_VOX_SRC}/make_voxels.py ${YEE_VOX_DIR})
set_tests_properties(voxels_setup PROPERTIES FIXTURES_SETUP yee_voxels)

yee_add_test(NAME voxels_geometry LABELS unit TIMEOUT 120
  COMMAND ${YEE_PYTHON} ${YEE_VOX_SRC}/check_voxels.py $<TARGET_FILE:yee> ${YEE_VOX_DIR})
set(YEE_VOX_TESTS voxels_geometry)

# yee_voxel_error(NAME "expected text, literally" yee-arguments...): `yee ARGS` run in the fixture
# folder must exit 1 and print the text.
function(yee_voxel_error name expected)
  yee_literal_regex(re "${expected}")
  yee_add_test(NAME voxels_error_${name} LABELS unit TIMEOUT 60
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${YEE_VOX_DIR} $<TARGET_FILE:yee>
            ${ARGN}
    PASS_REGEX "${re}")
  set(YEE_VOX_TESTS ${YEE_VOX_TESTS} voxels_error_${name} PARENT_SCOPE)
endfunction()
yee_voxel_error(bad_index
  "voxels_index.cfg:8: error: geometry[0].materials: 'data/voxels.h5:bad_index' holds index 2 at [k, j, i] = [0, 1, 2], out of range of the 2 materials listed (0 to 1)"
  check voxels_index.cfg --set geometry[0].dataset=\"bad_index\")
yee_voxel_error(missing_dataset
  "error: geometry[0].dataset: 'data/voxels.h5' has no dataset 'nope' (it has: bad_index, epsilon, flat, index, low, many)"
  check voxels_eps.cfg --set geometry[0].dataset=\"nope\")
yee_voxel_error(not_3d
  "error: geometry[0].dataset: 'data/voxels.h5:flat' must be a 3-D array (nz, ny, nx) (got 2-D, 4 x 4)"
  check voxels_eps.cfg --set geometry[0].dataset=\"flat\")
yee_voxel_error(eps_below_one
  "error: geometry[0].dataset: permittivity must be >= 1 (got 0.5 at [k, j, i] = [1, 2, 3] of 'data/voxels.h5:low')"
  check voxels_eps.cfg --set geometry[0].dataset=\"low\")
yee_voxel_error(too_many_values
  "error: geometry[0].dataset: 'data/voxels.h5:many' holds more than 240 distinct permittivities"
  check voxels_eps.cfg --set geometry[0].dataset=\"many\")
yee_voxel_error(float_indices
  "error: geometry[0].dataset: 'data/voxels.h5:epsilon' must hold integers (indices into materials) (got floating-point values)"
  check voxels_index.cfg --set geometry[0].dataset=\"epsilon\")
yee_voxel_error(size_zero
  "error: geometry[0].size[1]: must be > 0 (got 0.0)"
  check voxels_eps.cfg --set geometry[0].size=[1.0,0.0,1.0])
yee_voxel_error(unknown_material
  "error: geometry[0].materials[1]: unknown material \"glas\", did you mean \"glass\"?"
  check voxels_index.cfg --set geometry[0].materials=[\"air\",\"glas\"])
set_tests_properties(${YEE_VOX_TESTS} PROPERTIES FIXTURES_REQUIRED yee_voxels)
