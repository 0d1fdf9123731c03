# validation/line2d: a 2-D run's line current against the 2-D Green's function H0(k r).
yee_add_test(NAME validation_line2d LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_line2d.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/line2d.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/line2d)
