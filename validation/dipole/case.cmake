# validation/dipole: Hertzian dipole Ez(t) at 0.5..2 wavelengths vs the closed-form field, and
# the 1/r decay of its radiation term.
yee_add_test(NAME validation_dipole LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_dipole.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/dipole.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/dipole)
# ... and on a graded mesh (grid.refine): the source in 60 cells/um, the probes across the ramps.
yee_add_test(NAME validation_dipole_graded LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_dipole.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/dipole_graded.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/dipole_graded)
