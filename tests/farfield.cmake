# yee farfield (postproc/farfield.c): the physics is validation/farfield (a dipole's pattern and
# power); these check what it refuses, by name, and its command line.
set(YEE_FF_DIR ${CMAKE_CURRENT_BINARY_DIR}/farfield_files)
yee_add_test(NAME farfield_setup LABELS unit
  COMMAND $<TARGET_FILE:yee> run ${CMAKE_CURRENT_LIST_DIR}/farfield/small.cfg --out ${YEE_FF_DIR}
          --quiet)
set_tests_properties(farfield_setup PROPERTIES FIXTURES_SETUP yee_farfield_small)
function(yee_farfield_case name status regex)
  yee_add_test(NAME farfield_${name} LABELS unit
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=${status} ${YEE_FF_DIR}
            $<TARGET_FILE:yee> farfield small.h5 ${ARGN}
    PASS_REGEX "${regex}")
  set_tests_properties(farfield_${name} PROPERTIES FIXTURES_REQUIRED yee_farfield_small)
endfunction()
yee_farfield_case(unsaved 1 "flux monitor 'unsaved' of small.h5 has no saved face fields: set save_fields = true" --monitor unsaved)
yee_farfield_case(open_surface 1 "flux monitor 'plane' of small.h5 has 1 faces: the near-to-far transform needs a closed box of six" --monitor plane)
yee_farfield_case(no_monitor 1 "small.h5 has no flux monitor 'nope' .it has: box, plane, unsaved." --monitor nope)
yee_farfield_case(bad_theta 2 "yee farfield: --theta wants degrees as START:STOP:N or A,B,C in .0, 180. .got '0:200:5'." --monitor box --theta 0:200:5)
yee_farfield_case(bad_index 2 "yee farfield: --index wants .* .got '-1'." --monitor box --index -1)
yee_farfield_case(ok 0 "f 1 c/um .299.792 THz.: radiated .*wrote small_box_farfield.h5 and small_box_farfield.csv" --monitor box)
