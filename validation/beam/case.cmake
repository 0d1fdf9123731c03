# validation/beam: Gaussian-beam source vs paraxial beam widths, and one-way launching.
yee_add_test(NAME validation_beam LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_beam.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/beam.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/beam)
# ... and on a graded mesh: the source face, focus and profile on ramps and fine cells.
yee_add_test(NAME validation_beam_graded LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_beam.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/beam_graded.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/beam_graded)
