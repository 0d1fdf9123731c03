# Deck reader tests (label `deck`; the docs/schema sync test is also `unit`). They run
# tests/deck/deck_driver, which loads a deck through io/deck.c (yee_deck_load) and prints the derived values or the
# errors, so they need nothing of the solver. Each bad_*.cfg asserts its exact diagnostic text.
add_executable(deck_driver ${CMAKE_CURRENT_LIST_DIR}/deck/deck_driver.c)
target_link_libraries(deck_driver PRIVATE yee_io)

set(YEE_DECK_DIR ${CMAKE_CURRENT_LIST_DIR}/deck)


# yee_deck_test(NAME n ok|fail ARGS deck [--set k=v]... EXPECT literal-text...)
# All EXPECT texts must appear, in that order (they are joined with ".*").
function(yee_deck_test)
  cmake_parse_arguments(D "" "NAME;MODE" "ARGS;EXPECT" ${ARGN})
  set(re "")
  foreach(text ${D_EXPECT})
    yee_literal_regex(esc "${text}")
    if(re STREQUAL "")
      set(re "${esc}")
    else()
      set(re "${re}.*${esc}")
    endif()
  endforeach()
  yee_add_test(NAME ${D_NAME}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh ${D_MODE} ${YEE_DECK_DIR} $<TARGET_FILE:deck_driver> ${D_ARGS}
    LABELS deck PASS_REGEX "${re}")
endfunction()

# ---- good decks: derived values ----
# 4 um at 20 cells/um: n = 80, dt = 0.99 / sqrt(3 * 20^2) = 0.0285788383
yee_deck_test(NAME deck_good_dipole MODE ok ARGS good_dipole.cfg
  EXPECT "name good_dipole" "n 80 80 80" "dx 0.05 0.05 0.05" "origin -2 -2 -2" "dt 0.0285788383"
         "steps 800" "pml_cells 10 10 10 10 10 10"
         "source 0 line 9 name src0 component Ez position 0 0 0 profile gaussian frequency 1 fwidth 0.5 delay 1.59154943"
         "monitor 0 line 16 name center kind probe components Ez position 0 0 0.5"
         "monitor 1 line 17 name ez_xy kind snapshot components Ez Hx min -2 -2 0 max 2 2 0 interval 20 start 0")
# spacing [0.1, 0.05, 0.025]: dt = 0.5 / sqrt(2100) = 0.0109108945; 100 fs = 29.979 c-units
# -> 2747.6 -> 2748 steps; 299.792458 THz = 1 c/um; a 33.356 fs ramp = 10 c-units
yee_deck_test(NAME deck_good_full MODE ok ARGS good_full.cfg
  EXPECT "name full.run-1" "out_dir out/full" "n 30 40 40" "dx 0.1 0.05 0.025" "origin -0.5 -1 -1"
         "dt 0.0109108945" "steps 2748" "check_interval 50" "eps_r 2.25" "sigma 0.01"
         "boundary periodic periodic cpml cpml pec cpml" "pml_cells 0 0 6 7 0 9"
         "pml order 4 sigma_factor 0.8 kappa_max 5 alpha_max 0.05"
         "name a component Ex position 1 0 -0.5 profile gaussian frequency 1 fwidth 1 delay 0.795774715 ramp 0 amplitude -2"
         "name src1 component Ey position 0.5 0.5 -0.5 profile cw frequency 0.5 fwidth 0 delay 0 ramp 10 amplitude 1"
         "name src2 component Ez position 0.5 0.5 -0.5 profile ricker frequency 2 fwidth 0 delay 1 ramp 0"
         "name p0 kind probe components Ex Ey Ez"
         "name all kind snapshot components Ey Hx Hz min -0.5 -1 -1 max 2.5 1 0 interval 10 start 5 vtk 1")

# ---- bad decks: one exact diagnostic each ----
yee_deck_test(NAME deck_bad_wavelength MODE fail ARGS bad_wavelength.cfg
  EXPECT "bad_wavelength.cfg:7: error: sources[0].wavelength: must be > 0 (got -1)")
yee_deck_test(NAME deck_bad_misspelled MODE fail ARGS bad_misspelled.cfg
  EXPECT "bad_misspelled.cfg:1: error: simulation.courrant: unknown key, did you mean `courant`?")
yee_deck_test(NAME deck_bad_unknown_group MODE fail ARGS bad_unknown_group.cfg
  EXPECT "bad_unknown_group.cfg:3: error: monitor: unknown key, did you mean `monitors`?")
yee_deck_test(NAME deck_bad_type MODE fail ARGS bad_type.cfg
  EXPECT "bad_type.cfg:1: error: simulation.steps: must be an integer (got \"many\")")
yee_deck_test(NAME deck_bad_int_float MODE fail ARGS bad_int_float.cfg
  EXPECT "bad_int_float.cfg:1: error: simulation.steps: must be an integer (got 100.5)")
yee_deck_test(NAME deck_bad_no_size MODE fail ARGS bad_no_size.cfg
  EXPECT "bad_no_size.cfg:2: error: grid.size: missing required key")
yee_deck_test(NAME deck_bad_steps_time MODE fail ARGS bad_steps_time.cfg
  EXPECT "bad_steps_time.cfg:3: error: simulation.time: give exactly one of simulation.steps / simulation.time (got both)")
yee_deck_test(NAME deck_bad_periodic MODE fail ARGS bad_periodic.cfg
  EXPECT "bad_periodic.cfg:5: error: boundary.x_low: periodic must be on both faces of x (x_high is cpml)")
yee_deck_test(NAME deck_bad_pml_thick MODE fail ARGS bad_pml_thick.cfg
  EXPECT "bad_pml_thick.cfg:5: error: boundary.pml.cells: the PML on z takes 5 + 5 = 10 cells, but the grid has only 10 cells on z")
yee_deck_test(NAME deck_bad_source_outside MODE fail ARGS bad_source_outside.cfg
  EXPECT "bad_source_outside.cfg:6: error: sources[0].position: outside the domain [-2, 2] x [-2, 2] x [-2, 2] (got [0.0, 0.0, 3.0])")
yee_deck_test(NAME deck_bad_component MODE fail ARGS bad_component.cfg
  EXPECT "bad_component.cfg:5: error: monitors[0].components[1]: unknown component, expected one of Ex Ey Ez Hx Hy Hz (got \"Ew\")")
yee_deck_test(NAME deck_bad_h_source MODE fail ARGS bad_h_source.cfg
  EXPECT "bad_h_source.cfg:5: error: sources[0].component: a dipole drives an E component: Ex, Ey or Ez (got \"Hx\")"
         "bad_h_source.cfg:9: error: sources[0].bandwidth: only allowed when profile is \"gaussian\" (this profile is \"cw\")")
yee_deck_test(NAME deck_bad_profile MODE fail ARGS bad_profile.cfg
  EXPECT "bad_profile.cfg:8: error: sources[0].profile: must be one of \"gaussian\", \"cw\", \"ricker\", \"table\" (got \"gausian\"), did you mean \"gaussian\"?")
yee_deck_test(NAME deck_bad_other_type_key MODE fail ARGS bad_other_type_key.cfg
  EXPECT "bad_other_type_key.cfg:5: error: monitors[0].interval: only allowed when type is \"snapshot\" (this type is \"probe\")")
yee_deck_test(NAME deck_bad_snapshot MODE fail ARGS bad_snapshot.cfg
  EXPECT "bad_snapshot.cfg:4: error: monitors[0].interval: missing required key"
         "bad_snapshot.cfg:5: error: monitors[0].max: min > max on x (0.5 > 0)")
yee_deck_test(NAME deck_bad_dup_monitor MODE fail ARGS bad_dup_monitor.cfg
  EXPECT "bad_dup_monitor.cfg:6: error: monitors[2].name: duplicate monitor name \"p\" (first used by monitors[0] at bad_dup_monitor.cfg:4)")
yee_deck_test(NAME deck_bad_syntax MODE fail ARGS bad_syntax.cfg
  EXPECT "bad_syntax.cfg:4: error: syntax: syntax error")
yee_deck_test(NAME deck_bad_empty MODE fail ARGS bad_empty.cfg
  EXPECT "bad_empty.cfg: error: grid: missing required group"
         "bad_empty.cfg: error: simulation: missing required group")
# several errors in one deck are all reported, in line order (CMake lists cannot hold an
# unbalanced "]", hence the cut first text)
yee_deck_test(NAME deck_bad_many MODE fail ARGS bad_many.cfg
  EXPECT "bad_many.cfg:1: error: simulation.courant: must be in (0, 1"
         "bad_many.cfg:1: error: simulation.steps: must be > 0 (got 0)"
         "bad_many.cfg:2: error: grid.size[1]: must be >= 0 (got -2.0)"
         "bad_many.cfg:2: error: grid.spacing: must be a number or [x, y, z] (got [0.1, 0.1])"
         "bad_many.cfg:3: error: background.epsilon: must be >= 1 (got 0.5)"
         "bad_many.cfg:3: error: background.sigma: must be >= 0 (got -1.0)")
# geometry and materials (issue 4): every problem at once, with file:line
yee_deck_test(NAME deck_bad_geometry MODE fail ARGS bad_geometry.cfg
  EXPECT "bad_geometry.cfg:11: warning: geometry[4]: the box [4.75, 5.25] x [-0.25, 0.25] x [-0.25, 0.25] lies entirely outside the domain"
         "bad_geometry.cfg:4: error: materials[1].name: duplicate material name \"glass\" (first defined at line 4)"
         "bad_geometry.cfg:6: error: geometry[0].material: unknown material \"glas\", did you mean \"glass\"?"
         "bad_geometry.cfg:7: error: geometry[1].radius: must be > 0 (got -0.2)"
         "bad_geometry.cfg:9: error: geometry[2].vertices: the polygon intersects itself (edges 0-1 and 2-3)"
         "bad_geometry.cfg:10: error: geometry[3].size[1]: must be > 0 (got 0.0)"
         "bad_geometry.cfg:12: error: geometry[5].material: unknown material \"air\" (2 defined in materials)"
         "bad_geometry.cfg:12: error: geometry[5].height: missing required key (a cylinder needs a height)")
yee_deck_test(NAME deck_good_geometry MODE ok ARGS good_geometry.cfg
  EXPECT "subpixel 1 samples 4 geometry_out 1 background_material 0"
         "material 1 line 8 name lnb eps 4.8 4.8 4.6 sigma 10 pec 0"
         "material 3 line 10 name gold eps 1 1 1 sigma 0 pec 0 poles [kind 0 f0 2.00138457 gamma 0.333564095 sigma 0.5 tau 0] [kind 1 f0 6.6712819 gamma 0.066712819 sigma 1 tau 0]"
         "material 4 line 13 name water eps 1.8 1.8 1.8 sigma 0 pec 0 poles [kind 2 f0 0 gamma 0 sigma 76 tau 2398.33966]"
         "shape 2 line 18 kind 2 material 4 center 0 0 0 size 0 0 0 radius 0.1 radius2 0 height 1 axis 0.707106781 0.707106781 0"
         "shape 5 line 22 kind 5 material 1 center -0.6 0.6 0 size 0 0 0 radius 0 radius2 0 height 0.2 axis 0 1 0 nvert 3 counts 3 1 1")
yee_deck_test(NAME deck_missing_file MODE fail ARGS no_such_deck.cfg
  EXPECT "cannot open deck 'no_such_deck.cfg': No such file or directory")

# ---- --set overrides ----
yee_deck_test(NAME deck_set_override MODE ok
  ARGS good_dipole.cfg --set grid.resolution=10 --set sources.[0].profile=cw
       --set "monitors[0].components=[Ex,\"Hz\"]" --set "grid.size[2]=8" --set output.directory=res
  EXPECT "out_dir res" "n 40 40 80" "dt 0.0571576766" "profile cw" "name center kind probe components Ex Hz")
yee_deck_test(NAME deck_set_create MODE ok
  ARGS good_dipole.cfg --set background.epsilon=4 --set sources[1].type=dipole
       --set sources[1].component=ey --set "sources[1].position=[0.5, 0, 0]" --set sources[1].frequency=150
  EXPECT "eps_r 4" "nsources 2" "source 1 line 0 name src1 component Ey position 0.5 0 0")
yee_deck_test(NAME deck_set_bad_value MODE fail ARGS good_dipole.cfg --set sources[0].wavelength=-1
  EXPECT "--set sources[0].wavelength=-1: error: sources[0].wavelength: must be > 0 (got -1)")
yee_deck_test(NAME deck_set_unknown MODE fail ARGS good_dipole.cfg --set sources[0].wavelenght=2
  EXPECT "--set sources[0].wavelenght=2: error: sources[0].wavelenght: unknown key, did you mean `wavelength`?")
yee_deck_test(NAME deck_set_nan MODE fail ARGS good_dipole.cfg --set grid.resolution=nan
  EXPECT "--set grid.resolution=nan: error: grid.resolution: must be a finite number (got nan)")
yee_deck_test(NAME deck_set_malformed MODE fail ARGS good_dipole.cfg --set grid.resolution
  EXPECT "--set grid.resolution: error: expected key=value")
yee_deck_test(NAME deck_set_range MODE fail ARGS good_dipole.cfg --set sources[3].type=dipole
  EXPECT "--set sources[3].type=dipole: error: sources[3].type: index 3 out of range (sources has 1 element)")

# ---- docs/deck.md documents exactly the schema, and its example deck loads ----
yee_add_test(NAME deck_docs_sync
  COMMAND ${YEE_PYTHON} ${YEE_DECK_DIR}/check_docs.py $<TARGET_FILE:deck_driver>
          ${CMAKE_CURRENT_LIST_DIR}/../docs/deck.md
  LABELS deck unit)

# ---- graded mesh (grid.refine) ----
# x and y: 40 cells of 0.01 um in the region, ramps of 24 cells, 10 base cells of CPML; z
# uniform. dt from the narrowest cells: 0.99 / sqrt(2 / 0.01^2 + 1 / 0.05^2) = 0.00693138642
yee_deck_test(NAME deck_graded_ok MODE ok ARGS good_graded.cfg
  EXPECT "n 132 132 80" "dx 0.05 0.05 0.05" "dt 0.00693138642")
yee_deck_test(NAME deck_graded_region_in_pml MODE fail ARGS bad_graded_pml.cfg
  EXPECT "bad_graded_pml.cfg:8: error: grid.refine: x: region 1: [-1.9, 0.2] um is not inside [-1.5, 1.5] um, the part of the axis between the PML layers")
yee_deck_test(NAME deck_graded_planewave MODE fail ARGS bad_graded_planewave.cfg
  EXPECT "bad_graded_planewave.cfg:8: error: grid.refine: source 'src0' (line 10) travels at an angle to the graded z axis")
yee_deck_test(NAME deck_graded_planewave_along_axis MODE ok ARGS bad_graded_planewave.cfg
  --set "sources[0].direction=[0.0, 0.0, -1.0]" --set "sources[0].polarization=[1.0, 0.0, 0.0]"
  EXPECT "n 132 132 132")
yee_deck_test(NAME deck_graded_eigenmode MODE fail ARGS bad_graded_planewave.cfg
  --set "sources[0].type=eigenmode" --set "sources[0].position=[0.0, 0.0, 0.0]"
  --set "sources[0].direction=[0.0, 0.0, 1.0]"
  EXPECT "error: grid.refine: source 'src0' (line 10) is an eigenmode source, which needs a uniform grid")
yee_deck_test(NAME deck_graded_no_room MODE ok ARGS good_graded.cfg
  --set "grid.refine[0].max=[1.45, 0.2, 0.2]"
  EXPECT "warning: grid.refine: on x neighbouring cells reach a ratio of" "n ")
