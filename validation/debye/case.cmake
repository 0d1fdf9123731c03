# validation/debye: a Debye slab's R and T vs the Airy formulas at delta_eps 0.5, 10 and 75
# (within 1%), and 10^5 steps of a strong Debye medium in a closed box without energy growth.
yee_add_test(NAME validation_debye LABELS validation physics TIMEOUT 900
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_debye.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/debye.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/debye)
