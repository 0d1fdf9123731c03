# validation/eigenmode: eigenmode sources in straight guides (a 2-D slab, TM and TE runs, and a
# 3-D silicon strip): backward power, and the forward power a unit-amplitude source launches.
yee_add_test(NAME validation_eigenmode_source LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_eigenmode.py --yee $<TARGET_FILE:yee>
          --work ${CMAKE_CURRENT_BINARY_DIR}/eigenmode)
