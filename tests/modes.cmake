# yee modes (app/modes.c, solver/mode_solver.c): the physics is validation/modes (slab against
# its dispersion relation, silicon strip against MPB); these check the 2-D polarization filter
# and yee-plot-modes. The command's and the deck's refusals (yee modes, eigenmode sources, mode
# monitors) are in the catalogue, tests/errors/cases.txt.
set(YEE_MODES_DECK ${CMAKE_SOURCE_DIR}/validation/modes/slab.cfg)
set(YEE_MODES_DIR ${CMAKE_CURRENT_BINARY_DIR}/modes_files)
file(MAKE_DIRECTORY ${YEE_MODES_DIR})

# A TM run (Ez, Hx, Hy) keeps only its Ez modes: the slab's TE0 and TE1 (n 1.8439, 1.4634), not
# the TM0 (1.7825) the other polarization has; --frequency 299.792458 THz is 1 um.
yee_add_test(NAME modes_polarization_tm LABELS unit
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh ok ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> modes ${YEE_MODES_DECK} --plane x=0 --frequency 299.792458
          --modes 2 --set "simulation.polarization=\"tm\"" --out ${YEE_MODES_DIR}/tm.h5
  PASS_REGEX "mode 1: neff 1\\.8436[0-9]+ .*Ez-like[^\n]*\nmode 2: neff 1\\.463[0-9]+ .*Ez-like")
set_tests_properties(modes_polarization_tm PROPERTIES FIXTURES_SETUP yee_modes_files)

# yee-plot-modes draws the file to PNG, and refuses a mode the file does not hold by name
yee_add_test(NAME modes_plot LABELS unit
  COMMAND sh -c "rm -f '${YEE_MODES_DIR}/tm.png' && \
'${YEE_PYTHON}' '${CMAKE_SOURCE_DIR}/postproc/plot_modes.py' '${YEE_MODES_DIR}/tm.h5' && \
test -s '${YEE_MODES_DIR}/tm.png' && \
! '${YEE_PYTHON}' '${CMAKE_SOURCE_DIR}/postproc/plot_modes.py' '${YEE_MODES_DIR}/tm.h5' --mode 3"
  PASS_REGEX "plot_modes.py: error: --mode 3: the file holds modes 1 to 2")
set_tests_properties(modes_plot PROPERTIES FIXTURES_REQUIRED yee_modes_files)
