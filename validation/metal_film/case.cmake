# validation/metal_film: a 40 nm Drude film 1.6 cells thick at two positions against the grid,
# R and T vs Airy with the metal surface averaged (grid.subpixel_metals) and staircased.
yee_add_test(NAME validation_metal_film LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_metal_film.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/metal_film.cfg
          --work ${CMAKE_CURRENT_BINARY_DIR}/metal_film)
