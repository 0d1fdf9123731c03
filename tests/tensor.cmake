# The off-diagonal subpixel terms (grid.subpixel_tensor, kernels/yee_tensor.h). The physics is
# validation_subpixel's TE case; here: the nodes the geometry gives the kernels
# (tests/unit/tensor.c), a closed cavity's energy kept over 40,000 steps, the same bytes from the
# tuned CPU backend (its wavefront with E a layer behind H: kernels/cpu/wavefront.c) and the
# reference backend, and the CUDA backend (tests/gpu.cmake lists these decks), and the refusal of
# more than one rank.
add_executable(yee_test_tensor ${CMAKE_CURRENT_LIST_DIR}/unit/tensor.c)
target_link_libraries(yee_test_tensor PRIVATE yee_geometry yee_io m)
yee_add_test(NAME unit_tensor LABELS unit TIMEOUT 60
  COMMAND yee_test_tensor ${CMAKE_CURRENT_LIST_DIR}/tensor/sphere.cfg
          ${CMAKE_SOURCE_DIR}/validation/subpixel/cylinder.cfg)
foreach(stem sphere rod_te)
  yee_add_test(NAME tensor_schedules_agree_${stem} LABELS unit TIMEOUT 300
    COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/backends_agree.py --yee $<TARGET_FILE:yee>
            --deck ${CMAKE_CURRENT_LIST_DIR}/tensor/${stem}.cfg
            --work ${CMAKE_CURRENT_BINARY_DIR}/tensor/schedules_${stem}
            --backends cpu-reference cpu)
endforeach()
# A closed cavity keeps its energy over 40,000 steps (the coupling is symmetric).
yee_add_test(NAME unit_tensor_energy LABELS unit physics TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/tensor/check_energy.py $<TARGET_FILE:yee>
          ${CMAKE_CURRENT_LIST_DIR}/tensor/cavity.cfg ${CMAKE_CURRENT_BINARY_DIR}/tensor/energy)
set_property(TEST unit_tensor_energy APPEND PROPERTY ENVIRONMENT
             "OMP_NUM_THREADS=1;OMP_WAIT_POLICY=passive") # 5760 cells: threads only wait
string(REPLACE ";" " " YEE_TENSOR_MPI "${YEE_MPIEXEC}")
yee_add_test(NAME tensor_refuses_ranks LABELS mpi PROCESSORS 2 TIMEOUT 120
  COMMAND sh -c "sh '${CMAKE_CURRENT_LIST_DIR}/expect.sh' status=2 '${CMAKE_CURRENT_LIST_DIR}/tensor' \
${YEE_TENSOR_MPI} -np 2 '$<TARGET_FILE:yee>' run sphere.cfg --out '${CMAKE_CURRENT_BINARY_DIR}/tensor/ranks'"
  PASS_REGEX "sphere.cfg: error: grid.subpixel_tensor runs on one rank only \\(got 2 ranks\\)")
# The key does nothing without the averaging it refines: a warning names the line.
yee_deck_test(NAME deck_tensor_without_subpixel MODE ok
  ARGS ${CMAKE_CURRENT_LIST_DIR}/tensor/sphere.cfg --set grid.subpixel=false
  EXPECT "sphere.cfg:7: warning: grid.subpixel_tensor: has no effect with grid.subpixel = false")
# A stopped and a killed run with tensor nodes restart to the uninterrupted run's file.
foreach(mode term kill)
  yee_add_test(NAME tensor_restart_${mode} LABELS unit TIMEOUT 300
    COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/checkpoint/restart.py $<TARGET_FILE:yee>
            ${CMAKE_CURRENT_LIST_DIR}/tensor/restart.cfg
            ${CMAKE_CURRENT_BINARY_DIR}/tensor/restart_${mode} ${mode})
endforeach()
