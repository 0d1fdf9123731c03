# CPU vs CUDA parity (label gpu): exit 77 = skipped where no CUDA backend or device exists.
add_executable(yee_parity ${CMAKE_CURRENT_SOURCE_DIR}/gpu/parity.c)
target_link_libraries(yee_parity PRIVATE yee_solver)
foreach(deck dipole)
  yee_add_test(NAME gpu_parity_${deck}
    COMMAND yee_parity ${CMAKE_SOURCE_DIR}/inputs/${deck}.cfg 500
    LABELS gpu SKIP77 TIMEOUT 600)
endforeach()
