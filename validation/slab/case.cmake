# validation/slab: dielectric slab at normal incidence, R and T vs the Airy formulas (40 cells/um),
# and second-order convergence with averaged faces (80, 160 cells/um).
yee_add_test(NAME validation_slab LABELS validation physics TIMEOUT 900
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_slab.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/slab.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/slab)
# The same slab lit by a one-way TFSF plane wave, R and T from DFT flux planes normalized by a
# reference run (reflection: the reference's fields subtracted), vs Airy within 1%.
yee_add_test(NAME validation_slab_flux LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_slab_flux.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/slab_flux.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/slab_flux)
# A diagonally anisotropic conducting slab (eps 4 / 2.25 / 1, sigma 4000 S/m) lit with Ex and
# with Ey: R and T vs Airy within 1%, and the complex transmission from a DFT plane vs the
# Airy of the index the Yee grid realizes within 1% (per-component loss terms, DFT phase).
yee_add_test(NAME validation_slab_aniso LABELS validation physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_slab_aniso.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/slab_aniso.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/slab_aniso)
