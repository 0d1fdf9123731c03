# validation/cpml: CPML reflection (10 cells, default parameters) below -60 dB at probes 3 cells
# from the PML, against a reference run in a box too large for any reflection to return in time.
yee_add_test(NAME validation_cpml LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_cpml.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/cpml.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/cpml)
