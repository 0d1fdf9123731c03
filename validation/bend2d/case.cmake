# validation/bend2d: Meep's bend-flux tutorial in a 2-D yee run against Meep itself (T and R
# within 0.01); skipped (77) where python3-meep is not installed.
yee_add_test(NAME validation_bend2d LABELS validation physics SKIP77 TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_bend2d.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/bend2d.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/bend2d)
