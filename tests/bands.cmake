# yee bands (app/bands.c): the physics is validation/bands (square lattice of rods vs MPB); these
# check the command line, the deck errors a path meets, and that a k point under mpirun gives the
# modes of the serial run.
set(YEE_BANDS_DECK ${CMAKE_SOURCE_DIR}/inputs/bands_rods.cfg)
set(YEE_BANDS_DIR ${CMAKE_CURRENT_BINARY_DIR}/bands_files)

yee_add_test(NAME bands_bad_path LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=2 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> bands ${YEE_BANDS_DECK} --k-path "0,0 0.5,x"
  PASS_REGEX "yee bands: --k-path wants corners like .* .got '0,0 0.5,x'.")
yee_add_test(NAME bands_no_path LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=2 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> bands ${YEE_BANDS_DECK}
  PASS_REGEX "yee bands: no --k-path given")
yee_add_test(NAME bands_bad_interp LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=2 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> bands ${YEE_BANDS_DECK} --k-path 0,0 --k-interp 2.5
  PASS_REGEX "yee bands: --k-interp wants a whole number from 0 to 10000 .got '2.5'.")
# a k along z, which the 2-D cell's z is not periodic for: the deck's own check, placed at the
# override the command made
yee_add_test(NAME bands_axis_not_periodic LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> bands ${YEE_BANDS_DECK} --k-path "0,0,0.3" --out ${YEE_BANDS_DIR}/z
  PASS_REGEX "boundary.bloch: a Bloch wave vector along z needs periodic z faces")
yee_add_test(NAME bands_no_probe LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}/bands
          $<TARGET_FILE:yee> bands noprobe.cfg --k-path 0.5,0 --out ${YEE_BANDS_DIR}/noprobe
  PASS_REGEX "yee bands: noprobe.cfg has no probe monitor")
yee_add_test(NAME bands_run_too_short LABELS deck
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=1 ${CMAKE_CURRENT_LIST_DIR}
          $<TARGET_FILE:yee> bands ${YEE_BANDS_DECK} --k-path 0.5,0 --set simulation.time=20
          --out ${YEE_BANDS_DIR}/short
  PASS_REGEX "the run ends at 20.* fs, before the probes are analysed from .* fs")

# X point on 2 ranks (the cell split in two, the Bloch phase crossing the halo): the same modes
# as on one rank, to 1e-9 (harminv on series equal to rounding).
string(REPLACE ";" " " YEE_BANDS_MPI "${YEE_MPIEXEC}")
set(YEE_BANDS_RUN "'$<TARGET_FILE:yee>' bands '${YEE_BANDS_DECK}' --k-path 0.5,0.25 --quiet")
yee_add_test(NAME bands_mpi_2 LABELS mpi PROCESSORS 2 TIMEOUT 300
  COMMAND sh -c "rm -rf '${YEE_BANDS_DIR}/mpi' && \
OMP_NUM_THREADS=1 ${YEE_BANDS_RUN} --out '${YEE_BANDS_DIR}/mpi/r1' && \
OMP_NUM_THREADS=1 ${YEE_BANDS_MPI} -np 2 ${YEE_BANDS_RUN} --out '${YEE_BANDS_DIR}/mpi/r2' && \
'${YEE_PYTHON}' '${CMAKE_CURRENT_LIST_DIR}/bands/same_bands.py' \
'${YEE_BANDS_DIR}/mpi/r1/bands.csv' '${YEE_BANDS_DIR}/mpi/r2/bands.csv'")
set_tests_properties(bands_mpi_2 PROPERTIES FIXTURES_SETUP yee_bands_files)

# plot_bands.py refuses a run file (not bands.h5) and a --labels list of the wrong length, by
# name, with exit 1
yee_add_test(NAME bands_plot_errors LABELS unit
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bands/plot_errors.sh ${YEE_PYTHON}
          ${CMAKE_SOURCE_DIR}/postproc/plot_bands.py ${YEE_BANDS_DIR}/mpi/r1)
set_tests_properties(bands_plot_errors PROPERTIES FIXTURES_REQUIRED yee_bands_files)
