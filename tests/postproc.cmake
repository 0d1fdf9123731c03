# The Python plotting tools of postproc/ (docs/postproc.md), label `unit`: one small run
# (tests/postproc/small.cfg) is the fixture; each script then writes its image, which is read back
# and checked for size and content, and user mistakes must exit non-zero with a message (never a
# Python traceback).
set(YEE_PP_SRC ${CMAKE_CURRENT_LIST_DIR}/postproc)
set(YEE_PP_TOOLS ${CMAKE_SOURCE_DIR}/postproc)
set(YEE_PP_DIR ${CMAKE_CURRENT_BINARY_DIR}/postproc_files)
set(YEE_PP_RUN ${YEE_PP_DIR}/small.h5)
set(YEE_PP_CHECK "'${YEE_PYTHON}' '${YEE_PP_SRC}/check_image.py'")
set(YEE_PP_EXPECT sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh)

yee_add_test(NAME postproc_run LABELS unit TIMEOUT 120
  COMMAND sh -c "rm -rf '${YEE_PP_DIR}' && \
'$<TARGET_FILE:yee>' run '${YEE_PP_SRC}/small.cfg' --out '${YEE_PP_DIR}' --quiet")
set_tests_properties(postproc_run PROPERTIES FIXTURES_SETUP yee_postproc_run)
set(YEE_PP_TESTS)

# A plane monitor with permittivity contours, and a --slice of a 3D monitor.
yee_add_test(NAME postproc_snapshot LABELS unit TIMEOUT 120
  COMMAND sh -c "cd '${YEE_PP_DIR}' && \
'${YEE_PYTHON}' '${YEE_PP_TOOLS}/plot_snapshot.py' small.h5 --monitor xy --component Ez \
--frame 8 --eps-contour --out xy.png && \
${YEE_PP_CHECK} xy.png 800 600 && \
'${YEE_PYTHON}' '${YEE_PP_TOOLS}/plot_snapshot.py' small.h5 --monitor box --component Ex \
--slice y=0.0 --last --eps-contour --size 500x400 --out box_y0.png && \
${YEE_PP_CHECK} box_y0.png 500 400")
list(APPEND YEE_PP_TESTS postproc_snapshot)

# The CPML outline is drawn when the file records pml_cells and skipped when it does not.
yee_add_test(NAME postproc_snapshot_pml LABELS unit TIMEOUT 120
  COMMAND ${YEE_PYTHON} ${YEE_PP_SRC}/check_pml.py ${YEE_PP_RUN} ${YEE_PP_TOOLS})
list(APPEND YEE_PP_TESTS postproc_snapshot_pml)

# |FFT| of the far probe: the CSV peaks at the 1 um source (299.79 THz) within 10%.
yee_add_test(NAME postproc_spectrum LABELS unit TIMEOUT 120
  COMMAND sh -c "cd '${YEE_PP_DIR}' && \
'${YEE_PYTHON}' '${YEE_PP_TOOLS}/plot_spectrum.py' small.h5 --probe far --component Ez \
--out far.png --csv far.csv && \
${YEE_PP_CHECK} far.png 800 500 && \
'${YEE_PYTHON}' '${YEE_PP_SRC}/check_spectrum.py' far.csv 299.792458 0.10")
list(APPEND YEE_PP_TESTS postproc_spectrum)

# A wavelength range, a window, dB, and the modes of `yee resonances` overlaid.
yee_add_test(NAME postproc_spectrum_resonances LABELS unit TIMEOUT 120
  COMMAND sh -c "cd '${YEE_PP_DIR}' && \
'$<TARGET_FILE:yee>' resonances small.h5 --probe near --fmin 150 --fmax 600 > modes.txt && \
'${YEE_PYTHON}' '${YEE_PP_TOOLS}/plot_spectrum.py' small.h5 --probe near --component Hy \
--wl-min 0.5 --wl-max 2.0 --window hann --db --resonances modes.txt --size 600x400 \
--out near.png && \
${YEE_PP_CHECK} near.png 600 400")
list(APPEND YEE_PP_TESTS postproc_spectrum_resonances)

# Every written frame of the xy monitor as a GIF (as many frames as frames_written).
yee_add_test(NAME postproc_animate LABELS unit TIMEOUT 120
  COMMAND sh -c "cd '${YEE_PP_DIR}' && \
'${YEE_PYTHON}' '${YEE_PP_TOOLS}/animate.py' small.h5 --monitor xy --component Ez --fps 5 \
--eps-contour --out xy.gif && \
${YEE_PP_CHECK} xy.gif 640 480 small.h5:/snapshots/xy/Ez")
list(APPEND YEE_PP_TESTS postproc_animate)

# MP4: written when ffmpeg is installed, else a clear message and a non-zero exit.
find_program(YEE_FFMPEG ffmpeg)
if(YEE_FFMPEG)
  yee_add_test(NAME postproc_animate_mp4 LABELS unit TIMEOUT 120
    COMMAND sh -c "cd '${YEE_PP_DIR}' && \
'${YEE_PYTHON}' '${YEE_PP_TOOLS}/animate.py' small.h5 --monitor xy --out xy.mp4 && test -s xy.mp4")
else()
  yee_add_test(NAME postproc_animate_mp4 LABELS unit TIMEOUT 120
    COMMAND ${YEE_PP_EXPECT} fail ${YEE_PP_DIR} ${YEE_PYTHON} ${YEE_PP_TOOLS}/animate.py small.h5
      --monitor xy --out xy.mp4
    PASS_REGEX "animate.py: error: MP4 output needs the ffmpeg program.*--out xy.gif")
endif()
list(APPEND YEE_PP_TESTS postproc_animate_mp4)

# User mistakes: non-zero exit, a message naming what exists, no traceback.
function(yee_pp_error name regex)
  yee_add_test(NAME postproc_error_${name} LABELS unit TIMEOUT 120
    COMMAND ${YEE_PP_EXPECT} fail ${YEE_PP_DIR} ${YEE_PYTHON} ${ARGN} PASS_REGEX "${regex}")
  set_tests_properties(postproc_error_${name} PROPERTIES FAIL_REGULAR_EXPRESSION "Traceback")
  set(YEE_PP_TESTS ${YEE_PP_TESTS} postproc_error_${name} PARENT_SCOPE)
endfunction()
yee_pp_error(monitor
  "plot_snapshot.py: error: no snapshot monitor 'nope' in small.h5. available: box, geometry, xy"
  ${YEE_PP_TOOLS}/plot_snapshot.py small.h5 --monitor nope)
yee_pp_error(animate_monitor
  "animate.py: error: no snapshot monitor 'nope' .*available: box, geometry, xy"
  ${YEE_PP_TOOLS}/animate.py small.h5 --monitor nope)
yee_pp_error(component "snapshot monitor 'xy' has no component 'Hx'. available: Ez"
  ${YEE_PP_TOOLS}/plot_snapshot.py small.h5 --monitor xy --component Hx)
yee_pp_error(box_needs_slice "monitor 'box' is a 3D box .*choose a plane with --slice"
  ${YEE_PP_TOOLS}/plot_snapshot.py small.h5 --monitor box)
yee_pp_error(step "has no frame at step 7. steps written: 20, 40, 60"
  ${YEE_PP_TOOLS}/plot_snapshot.py small.h5 --monitor xy --step 7)
yee_pp_error(probe "plot_spectrum.py: error: no probe 'nope' in small.h5. available: far, near"
  ${YEE_PP_TOOLS}/plot_spectrum.py small.h5 --probe nope)
yee_pp_error(missing_file "cannot open 'missing.h5': no such file"
  ${YEE_PP_TOOLS}/plot_spectrum.py missing.h5 --probe far)
yee_pp_error(resonances_file "cannot read resonances 'missing.txt'"
  ${YEE_PP_TOOLS}/plot_spectrum.py small.h5 --probe far --resonances missing.txt)
# The same for the C subcommands of yee (postproc/resonances.c, postproc/export_vtk.c).
function(yee_pp_cli_error name regex)
  yee_add_test(NAME postproc_error_${name} LABELS unit TIMEOUT 120
    COMMAND ${YEE_PP_EXPECT} fail ${YEE_PP_DIR} $<TARGET_FILE:yee> ${ARGN} PASS_REGEX "${regex}")
  set(YEE_PP_TESTS ${YEE_PP_TESTS} postproc_error_${name} PARENT_SCOPE)
endfunction()
yee_pp_cli_error(resonances_probe
  "yee resonances: 'small.h5' has no probe 'nope' \\(probes: far, near\\)"
  resonances small.h5 --probe nope)
yee_pp_cli_error(export_vtk_monitor
  "yee export-vtk: error: 'small.h5' has no snapshot monitor 'nope' \\(monitors: box, geometry, xy\\)"
  export-vtk small.h5 --monitor nope)
yee_pp_cli_error(export_vtk_component
  "yee export-vtk: error: snapshot monitor 'xy' has no component 'Hx' \\(components: Ez\\)"
  export-vtk small.h5 --monitor xy --component Hx)
yee_pp_cli_error(export_vtk_step
  "yee export-vtk: error: snapshot monitor 'xy' has no frame at step 7 \\(steps written: 20, 40, 60,"
  export-vtk small.h5 --monitor xy --step 7)
yee_pp_cli_error(export_vtk_file "yee export-vtk: error: cannot open 'missing.h5': No such file"
  export-vtk missing.h5)
set_tests_properties(${YEE_PP_TESTS} PROPERTIES FIXTURES_REQUIRED yee_postproc_run)

# `yee export-vtk`: a run of small.cfg whose snapshots also write VTK (vtk = true), exported again
# with --all: VTK's own reader must give every HDF5 frame bit for bit and the run's own files byte
# for byte (check_export_vtk.py). Then the selections: --monitor/--step gives exactly that file,
# and no option the last frame of each of the 6 datasets (box Ex, Ez; geometry Ex, Ey, Ez; xy Ez).
set(YEE_PP_VTK ${CMAKE_CURRENT_BINARY_DIR}/postproc_export_vtk)
yee_add_test(NAME postproc_export_vtk LABELS unit TIMEOUT 120
  COMMAND sh -c "rm -rf '${YEE_PP_VTK}' && \
'$<TARGET_FILE:yee>' run '${YEE_PP_SRC}/small.cfg' --out '${YEE_PP_VTK}/run' --quiet \
--set 'monitors[2].vtk=true' --set 'monitors[3].vtk=true' && \
'$<TARGET_FILE:yee>' export-vtk '${YEE_PP_VTK}/run/small.h5' --all --out '${YEE_PP_VTK}/all' \
--quiet && \
'${YEE_PYTHON}' '${YEE_PP_SRC}/check_export_vtk.py' '${YEE_PP_VTK}/run/small.h5' \
'${YEE_PP_VTK}/all' '${YEE_PP_VTK}/run' && \
'$<TARGET_FILE:yee>' export-vtk '${YEE_PP_VTK}/run/small.h5' --monitor xy --step 40 \
--out '${YEE_PP_VTK}/one' && test \"$(ls '${YEE_PP_VTK}/one')\" = small_xy_Ez_000040.vtk && \
cmp '${YEE_PP_VTK}/one/small_xy_Ez_000040.vtk' '${YEE_PP_VTK}/run/small_xy_Ez_000040.vtk' && \
'$<TARGET_FILE:yee>' export-vtk '${YEE_PP_VTK}/run/small.h5' --out '${YEE_PP_VTK}/last' && \
test \"$(ls '${YEE_PP_VTK}/last' | grep -c '_000300.vtk$')\" = 3 && \
test \"$(ls '${YEE_PP_VTK}/last' | wc -l)\" = 6")

# --help of every script (no run needed).
foreach(tool plot_snapshot plot_spectrum animate)
  yee_add_test(NAME postproc_help_${tool} LABELS unit TIMEOUT 120
    COMMAND ${YEE_PYTHON} ${YEE_PP_TOOLS}/${tool}.py --help PASS_REGEX "usage: ${tool}.py")
endforeach()
