# validation/modes: `yee modes` (the finite-difference mode solver) on a 2-D slab waveguide
# against its analytic dispersion relation, and on a silicon strip against MPB (Debian mpb).
yee_add_test(NAME validation_modes_slab LABELS validation physics TIMEOUT 120
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_modes.py --case slab
          --yee $<TARGET_FILE:yee> --deck ${CMAKE_CURRENT_LIST_DIR}/slab.cfg
          --work ${CMAKE_CURRENT_BINARY_DIR}/modes_slab)
yee_add_test(NAME validation_modes_strip_mpb LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_modes.py --case strip
          --yee $<TARGET_FILE:yee> --deck ${CMAKE_CURRENT_LIST_DIR}/strip.cfg
          --work ${CMAKE_CURRENT_BINARY_DIR}/modes_strip)
