# validation/tfsf: TFSF plane-wave leakage into the scattered-field region, normal and oblique.
yee_add_test(NAME validation_tfsf LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_tfsf.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/tfsf.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/tfsf)
# ... and on a graded mesh: along graded axes both ways (the 1-D grid on the axis's own lines).
yee_add_test(NAME validation_tfsf_graded LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_tfsf.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/tfsf_graded.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/tfsf_graded)
