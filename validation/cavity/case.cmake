# validation/cavity: PEC box resonances vs the Yee discrete dispersion relation (and their O(dx^2)
# offset from the continuum). Runs cavity.cfg into build/validation/cavity, checks with Debian
# python (numpy, h5py) and `yee resonances`.
yee_add_test(NAME validation_cavity LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_cavity.py
          --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/cavity.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/cavity)
