# validation/drude: reflection from a Drude half-space (ADE) vs Fresnel with the Drude eps.
yee_add_test(NAME validation_drude LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_drude.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/drude.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/drude)
