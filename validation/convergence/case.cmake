# validation/convergence: 2nd-order convergence of the lowest cavity mode (R = 10, 20, 40 cells/um)
# on the deck of validation/cavity.
yee_add_test(NAME validation_convergence LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_convergence.py
          --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/../cavity/cavity.cfg
          --work ${CMAKE_CURRENT_BINARY_DIR}/convergence)
