# yee modes (app/modes.c, solver/mode_solver.c): the physics is validation/modes (slab against
# its dispersion relation, silicon strip against MPB); these check the command line, the 2-D
# polarization filter and yee-plot-modes.
set(YEE_MODES_DECK ${CMAKE_SOURCE_DIR}/validation/modes/slab.cfg)
set(YEE_MODES_DIR ${CMAKE_CURRENT_BINARY_DIR}/modes_files)
file(MAKE_DIRECTORY ${YEE_MODES_DIR})

yee_add_test(NAME modes_plane_outside LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=2 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> modes ${YEE_MODES_DECK} --plane y=3 --wavelength 1
  PASS_REGEX "yee modes: --plane y=3 lies outside the grid .y from -2 to 2 um.")
yee_add_test(NAME modes_plane_2d_z LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=2 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> modes ${YEE_MODES_DECK} --plane z=0 --wavelength 1
  PASS_REGEX "yee modes: a 2-D run has no z plane")
yee_add_test(NAME modes_two_frequencies LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=2 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> modes ${YEE_MODES_DECK} --plane x=0 --wavelength 1 --frequency 300
  PASS_REGEX "yee modes: give exactly one of --wavelength and --frequency")
yee_add_test(NAME modes_deck_error LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> modes ${YEE_MODES_DECK} --plane x=0 --wavelength 1
          --set grid.resolution=-5
  PASS_REGEX "grid.resolution")

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

# Eigenmode sources (the physics: validation/eigenmode): the deck's refusals, and a mode number
# the source plane does not guide (the slab's TM run has TE0 and TE1), named with the count.
set(YEE_EIGEN_DECK ${CMAKE_SOURCE_DIR}/validation/eigenmode/slab2d.cfg)
yee_add_test(NAME eigenmode_error_z_in_2d LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> check ${YEE_EIGEN_DECK} --set "sources[0].direction=[0.0, 0.0, 1.0]"
  PASS_REGEX "sources\\[0\\].direction: a 2-D run has no z direction: an eigenmode source travels along")
yee_add_test(NAME eigenmode_error_oblique LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> check ${YEE_EIGEN_DECK} --set "sources[0].direction=[1.0, 1.0, 0.0]"
  PASS_REGEX "an eigenmode source travels along \\+-x, \\+-y or \\+-z")
yee_add_test(NAME eigenmode_error_ricker LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> check ${YEE_EIGEN_DECK} --set "sources[0].profile=\"ricker\""
  PASS_REGEX "an eigenmode source needs a carrier")
yee_add_test(NAME eigenmode_error_no_such_mode LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> run ${YEE_EIGEN_DECK} --set "sources[0].mode=9"
          --set simulation.time=30 --out ${YEE_MODES_DIR}/nomode
  PASS_REGEX "slab2d.cfg:[0-9]+: source 'src0': mode 9 asked, but the source plane guides 2 modes at 299.8 THz")

# Mode monitors (the physics: validation/eigenmode): a box is refused, and so is an incident
# monitor that is not a mode monitor of the deck.
yee_add_test(NAME mode_monitor_error_box LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> check ${YEE_EIGEN_DECK} --set "monitors[2].max=[-0.5, 1.4, 0.0]"
  PASS_REGEX "monitors\\[2\\]: a mode monitor is a plane")
yee_add_test(NAME mode_monitor_error_incident LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> check ${YEE_EIGEN_DECK} --set "monitors[3].incident=\"fwd\""
  PASS_REGEX "monitors\\[3\\].incident: no mode monitor is named \"fwd\"")
# The mode solver's walls are zero fields: a pmc face (a mirror plane) on the plane's edge is
# refused by name, and so is a mode monitor in a Bloch-periodic run (real profiles, no phase).
yee_add_test(NAME modes_error_pmc_wall LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> modes ${YEE_MODES_DECK} --plane x=0 --wavelength 1
          --set "boundary.y_low=\"pmc\""
  PASS_REGEX "the mode solver has no PMC wall: the low y face is pmc")
yee_add_test(NAME mode_monitor_error_bloch LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> check ${YEE_EIGEN_DECK} --set "boundary.x=\"periodic\""
          --set "boundary.bloch=[0.1, 0.0, 0.0]"
  PASS_REGEX "monitors\\[2\\]: a mode monitor projects on real mode profiles")
