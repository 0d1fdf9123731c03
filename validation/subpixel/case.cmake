# validation/subpixel: convergence order of a dielectric-rod cavity mode, averaging on vs off.
yee_add_test(NAME validation_subpixel LABELS validation physics TIMEOUT 1200
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_subpixel.py
          --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/cylinder.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/subpixel)
