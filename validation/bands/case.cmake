# validation/bands: `yee bands` on inputs/bands_rods.cfg (square lattice of eps-8.9 rods, TM)
# along Gamma-X-M against MPB (Debian package mpb) run by the checker: the first 4 bands within 1 %.
yee_add_test(NAME validation_bands_mpb LABELS validation physics TIMEOUT 600
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_bands.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_SOURCE_DIR}/inputs/bands_rods.cfg --work ${CMAKE_CURRENT_BINARY_DIR}/bands)
# A 32 x 32 cell: one thread runs it 3x faster than two (OpenMP's barriers cost more than the
# cells' work), so the case takes ~10 s instead of ~45 s.
set_property(TEST validation_bands_mpb APPEND PROPERTY ENVIRONMENT "OMP_NUM_THREADS=1")
