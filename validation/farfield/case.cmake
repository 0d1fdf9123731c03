# validation/farfield: `yee farfield` (near-to-far transform from a closed flux box's saved DFT
# fields) on a z dipole: sin^2 pattern, no E_phi, far-field power = the box's flux, within 1 %.
yee_add_test(NAME validation_farfield_dipole LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_farfield.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/dipole_box.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/farfield)
# ... and on a graded mesh (grid.refine): the box's faces cross the ramps (nodes of unequal
# cells, their coordinates and weights read back from the run file).
yee_add_test(NAME validation_farfield_dipole_graded LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_farfield.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/dipole_box_graded.cfg
          --work ${CMAKE_CURRENT_BINARY_DIR}/farfield_graded)
