# validation/mie: dielectric sphere (eps 4, r = 0.5 um) lit by a TFSF plane wave; scattering
# efficiency Q_sca from a closed flux box (scattered-field region) normalized by a reference
# run's incident intensity, vs the Mie series over x = 1 - 3 at 25 cells/um, within 5%.
yee_add_test(NAME validation_mie LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_mie.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/mie.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/mie)
# The same with the off-diagonal subpixel terms (grid.subpixel_tensor), over x = 1 - 2.5 where the
# averaging, not the grid's dispersion, dominates: Q_sca within 2%, the differential
# cross-section within 3% of its peak, the pattern within 2% (the diagonal alone: 2.8%, 4.9%,
# 2.5% there).
yee_add_test(NAME validation_mie_tensor LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_mie.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/mie.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/mie_tensor
          --tensor)
