# The `yee` command line end to end: help/version/info, a full run of the example deck read back
# with h5py and VTK, and a deck with a typo rejected with file:line.
set(YEE_CLI_SRC ${CMAKE_CURRENT_LIST_DIR}/cli)
set(YEE_CLI_DIR ${CMAKE_CURRENT_BINARY_DIR}/cli_files)

yee_add_test(NAME cli_help LABELS unit COMMAND yee --help PASS_REGEX "usage: yee <command>")
yee_add_test(NAME cli_version LABELS unit COMMAND yee --version PASS_REGEX "^yee [0-9]+\\.[0-9]+\\.[0-9]+")
yee_add_test(NAME cli_info LABELS unit COMMAND yee info PASS_REGEX "backends +cpu")
yee_add_test(NAME cli_unknown_command LABELS unit COMMAND yee frobnicate WILL_FAIL)
# Every command `yee --help` lists: --help, -h and `yee help CMD` print its usage (exit 0), an
# unknown option exits 2, each option its help names is accepted; the exit statuses match
# README.md and docs/errors.md.
yee_add_test(NAME cli_help_commands LABELS unit TIMEOUT 120
  COMMAND ${YEE_PYTHON} ${YEE_CLI_SRC}/check_help.py $<TARGET_FILE:yee> ${CMAKE_SOURCE_DIR}
  PASS_REGEX "^ok: ")
# Every numeric option of every command refuses junk, nothing, out of range, overflow and NaN
# with exit 2 naming the option and the value (common/yee_num.h); the table is in check_help.py.
yee_add_test(NAME cli_help_numbers LABELS unit TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${YEE_CLI_SRC}/check_help.py $<TARGET_FILE:yee> ${CMAKE_SOURCE_DIR}
          --numbers
  PASS_REGEX "^ok: ")
# tests/expect.sh checks the exit status; PASS_REGEX then checks the message.
set(YEE_EXPECT sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh)
# A tuning variable that is not a whole number is an error (exit 2), never the default.
yee_add_test(NAME cli_env_not_a_number LABELS unit
  COMMAND ${YEE_EXPECT} status=2 ${YEE_CLI_SRC} ${CMAKE_COMMAND} -E env YEE_STEPS_PER_SWEEP=abc
          $<TARGET_FILE:yee> run ${CMAKE_SOURCE_DIR}/tests/deck/good_dipole.cfg
  PASS_REGEX "yee: error: environment: YEE_STEPS_PER_SWEEP wants a whole number \\(got 'abc'\\)")
yee_add_test(NAME cli_missing_deck LABELS unit
  COMMAND ${YEE_EXPECT} fail ${YEE_CLI_SRC} $<TARGET_FILE:yee> run /nonexistent/deck.cfg
  PASS_REGEX "cannot open deck '/nonexistent/deck.cfg'")

# `yee check` on a typo: non-zero exit, file:line, and a hint.
yee_add_test(NAME cli_check_typo LABELS unit
  COMMAND ${YEE_EXPECT} fail ${YEE_CLI_SRC} $<TARGET_FILE:yee> check typo.cfg
  PASS_REGEX "typo.cfg:7: error: grid.resolutoin: unknown key, did you mean .resolution.")

# The example deck: a full run, then h5py, XDMF and VTK read it back.
yee_add_test(NAME run_dipole LABELS unit TIMEOUT 300
  COMMAND sh -c "rm -rf '${YEE_CLI_DIR}/dipole' && \
'$<TARGET_FILE:yee>' run '${CMAKE_SOURCE_DIR}/inputs/dipole.cfg' --out '${YEE_CLI_DIR}/dipole' --quiet && \
'${YEE_PYTHON}' '${YEE_CLI_SRC}/check_dipole_run.py' '${YEE_CLI_DIR}/dipole'")

# Every example deck validates (each also runs in its own test or validation case). Sweep decks
# (sweep_*.cfg, with ${...} placeholders) are not runnable decks: tests/sweep.cmake runs them.
file(GLOB YEE_INPUT_DECKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/inputs/*.cfg)
foreach(deck ${YEE_INPUT_DECKS})
  get_filename_component(stem ${deck} NAME_WE)
  if(stem MATCHES "^sweep_")
    continue()
  endif()
  yee_add_test(NAME check_input_${stem} LABELS unit COMMAND yee check ${deck} PASS_REGEX "ok: ")
endforeach()

# `yee check --geometry DIR`: the rasterized permittivity of a deck with a glass sphere, read back
# with h5py (eps 2.25 inside, 1 outside, averaged values between) and VTK files present.
yee_add_test(NAME cli_check_geometry LABELS unit TIMEOUT 120
  COMMAND sh -c "rm -rf '${YEE_CLI_DIR}/geo' && mkdir -p '${YEE_CLI_DIR}/geo' && \
'$<TARGET_FILE:yee>' check '${CMAKE_CURRENT_LIST_DIR}/postproc/small.cfg' --geometry '${YEE_CLI_DIR}/geo' && \
'${YEE_PYTHON}' '${YEE_CLI_SRC}/check_geometry.py' '${YEE_CLI_DIR}/geo'")
# `yee check` resolution in the densest medium (model/resolution.c): the eps-12 core of the 2-D
# bend, not the background, at 10 and 5 cells/um (the warning below 10), and gold's skin depth in
# the nanosphere example; the run writes the same figure as a root attribute.
yee_add_test(NAME cli_resolution_densest LABELS unit
  COMMAND yee check ${CMAKE_SOURCE_DIR}/validation/bend2d/bend2d.cfg --set grid.resolution=10
  PASS_REGEX "resolution  14\\.4 cells per shortest wavelength \\(1\\.443 um at 59\\.96 THz in \"core\", n = 3\\.46\\)")
yee_add_test(NAME cli_resolution_warning LABELS unit
  COMMAND yee check ${CMAKE_SOURCE_DIR}/validation/bend2d/bend2d.cfg --set grid.resolution=5
  PASS_REGEX "warning: fewer than 10 cells per wavelength \\(7\\.2\\) in the densest medium")
yee_add_test(NAME cli_resolution_skin_depth LABELS unit
  COMMAND yee check ${CMAKE_SOURCE_DIR}/inputs/nanosphere.cfg
  PASS_REGEX "resolution  7\\.3 cells per skin depth in \"Au\" at 749\\.5 THz")
yee_add_test(NAME cli_resolution_attribute LABELS unit
  COMMAND sh -c "rm -rf '${YEE_CLI_DIR}/resolution' && '$<TARGET_FILE:yee>' run \
'${CMAKE_SOURCE_DIR}/validation/bend2d/bend2d.cfg' --set grid.resolution=10 \
--set simulation.time=0.5 --quiet --out '${YEE_CLI_DIR}/resolution' && \
'${YEE_PYTHON}' '${YEE_CLI_SRC}/print_attrs.py' '${YEE_CLI_DIR}/resolution/bend2d.h5' \
cells_per_wavelength densest_index cells_per_skin_depth"
  PASS_REGEX "cells_per_wavelength=14.43 densest_index=3.464 cells_per_skin_depth=inf")
