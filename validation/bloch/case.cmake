# validation/bloch: Bloch-periodic boundaries. A slab lit at 30 and 60 degrees, s and p, by a
# sheet source carrying the Bloch phase: R and T vs the oblique Airy formulas within 1 %.
yee_add_test(NAME validation_bloch_slab LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_bloch_slab.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/slab_oblique.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/bloch_slab)
