# Unit tests of solver behaviour driven through the C API (no deck).
add_executable(yee_test_blowup ${CMAKE_CURRENT_LIST_DIR}/unit/blowup.c)
target_link_libraries(yee_test_blowup PRIVATE yee_solver)
yee_add_test(NAME unit_blowup LABELS unit TIMEOUT 60 COMMAND yee_test_blowup)

add_executable(yee_test_profiles ${CMAKE_CURRENT_LIST_DIR}/unit/profiles.c)
target_link_libraries(yee_test_profiles PRIVATE yee_solver)
yee_add_test(NAME unit_profiles LABELS unit TIMEOUT 60 COMMAND yee_test_profiles)

# Decimated DFT sums (every k-th step, k from the sources' bandwidth) equal every-step sums.
yee_add_test(NAME unit_dft_decimation LABELS unit TIMEOUT 120
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/unit/check_decimation.py $<TARGET_FILE:yee>
          ${CMAKE_SOURCE_DIR}/validation/slab/slab_flux.cfg ${CMAKE_CURRENT_BINARY_DIR}/decimation)

# The CPU backend's two-step wavefront (step_pair) gives the bytes of the six single-step ops.
add_executable(yee_test_step_pair ${CMAKE_CURRENT_LIST_DIR}/unit/step_pair.c)
target_link_libraries(yee_test_step_pair PRIVATE yee_solver)
yee_add_test(NAME unit_step_pair LABELS unit TIMEOUT 60 COMMAND yee_test_step_pair)

# The CUDA backend's thread blocks are legal launches that cover their box without more than
# twice the threads it has cells (kernels/cuda/launch_shape.h; host arithmetic, every build).
add_executable(yee_test_launch_shape ${CMAKE_CURRENT_LIST_DIR}/unit/launch_shape.c)
target_link_libraries(yee_test_launch_shape PRIVATE yee_common)
yee_add_test(NAME unit_launch_shape LABELS unit TIMEOUT 60 COMMAND yee_test_launch_shape)
