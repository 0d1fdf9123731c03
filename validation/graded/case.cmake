# validation/graded: the graded mesh (grid.refine). What a 2.5 -> 25 nm ramp at grading 1.2
# reflects (below -60 dB), and a 20 nm Drude film refined only where it is: R and T against Airy
# as accurate as uniform 2.5 nm cells with at least 5x fewer cells.
yee_add_test(NAME validation_graded LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_graded.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/graded_film.cfg
          --work ${CMAKE_CURRENT_BINARY_DIR}/graded)
