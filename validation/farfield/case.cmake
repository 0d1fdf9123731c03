# validation/farfield: `yee farfield` (near-to-far transform from a closed flux box's saved DFT
# fields) on a z dipole: sin^2 pattern, no E_phi, far-field power = the box's flux, within 1 %.
yee_add_test(NAME validation_farfield_dipole LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_farfield.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/dipole_box.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/farfield)
