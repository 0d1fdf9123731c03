# The example decks of inputs/ (docs/tutorials/), label `examples`: each test runs its deck the
# way the tutorial does, through a checker in tests/examples/ that then checks physical sanity
# (a lossless straight guide transmits ~1, R + T = 1 for a lossless grating, the gold plasmon
# against Mie, ...), so a broken source, flux monitor, reference or material fails here. The bend
# is normalized by the straight guide's run, hence the fixture. Each takes 15 - 60 s on 2 cores.
# OMP_WAIT_POLICY=passive: on a machine shared with other jobs, OpenMP threads spinning at the
# barriers of the many small per-step loops made these runs 3-6x slower (ring: 88 s instead of
# 15 s); sleeping waits cost nothing when the machine is idle.
set(YEE_EX_SRC ${CMAKE_CURRENT_LIST_DIR}/examples)
set(YEE_EX_DIR ${CMAKE_CURRENT_BINARY_DIR}/examples_files)

function(yee_example name)
  cmake_parse_arguments(E "" "THREADS" "ARGS" ${ARGN})
  set(threads 2)
  if(E_THREADS)
    set(threads ${E_THREADS})
  endif()
  yee_add_test(NAME examples_${name} LABELS examples TIMEOUT 900 PROCESSORS ${threads}
    COMMAND env OMP_NUM_THREADS=${threads} OMP_WAIT_POLICY=passive
            ${YEE_PYTHON} ${YEE_EX_SRC}/check_${name}.py --yee $<TARGET_FILE:yee>
            --inputs ${CMAKE_SOURCE_DIR}/inputs --work ${YEE_EX_DIR}/${name} ${E_ARGS})
endfunction()

# Straight silicon strip: P_end / P_start within 5% of 1 over 1.3 - 1.8 um.
yee_example(waveguide)
set_tests_properties(examples_waveguide PROPERTIES FIXTURES_SETUP yee_examples_straight)

# 90-degree bend normalized by the straight run: 0 <= T <= 1.05, T > 0.3 mostly, R < 5%.
yee_example(bend ARGS --straight ${YEE_EX_DIR}/waveguide/waveguide.h5)
set_tests_properties(examples_bend PROPERTIES FIXTURES_REQUIRED yee_examples_straight)

# Ring resonator: harminv resonances with Q > 50 forming a comb (group index 3.5 - 5).
yee_example(ring)

# Grating on a slab, one period, one-way plane wave: |R + T - 1| < 0.02, 0 <= R, T <= 1. The
# grid is one cell thick (40 x 1 x 300 cells): one thread, as OpenMP costs more than it gives.
yee_example(grating THREADS 1)

# Gold nanosphere (TFSF, closed flux boxes): extinction peak in 500 - 600 nm, absorption > 0,
# peak within 8 % / 4 nm of Mie theory, Q_ext and Q_abs within 0.12 / 0.10 of Mie's peak over
# the band (the averaged metal surface; a staircase is 6.2 nm off, 0.165 / 0.112 on the band).
yee_example(nanosphere)

# postproc/plot_flux.py on the grating runs: the tutorial's plot (PNG size, not blank), its CSV
# equal to the runs' normalized spectra and their sum, --divide with another run, a wrong name.
set_tests_properties(examples_grating PROPERTIES FIXTURES_SETUP yee_examples_grating)
yee_add_test(NAME examples_plot_flux LABELS examples TIMEOUT 120
  COMMAND ${YEE_PYTHON} ${YEE_EX_SRC}/check_plot_flux.py --postproc ${CMAKE_SOURCE_DIR}/postproc
          --work ${YEE_EX_DIR}/grating)
set_tests_properties(examples_plot_flux PROPERTIES FIXTURES_REQUIRED yee_examples_grating)

# 90-degree bend S-parameters from one run (eigenmode source, mode monitors) against the flux
# method (two runs of validation/bend2d/bend2d.cfg) at 10 cells/um: R and T within 0.01-0.02.
yee_example(bend_sparams)

# Half-wave dipole antenna through yee farfield: pattern within 5 % and directivity within 3 % of
# the thin wire with a sinusoidal current, independent of phi, far-field power = box flux.
yee_example(dipole_antenna)
