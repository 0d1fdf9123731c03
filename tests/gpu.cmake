# CPU vs CUDA parity (label gpu): exit 77 = skipped where no CUDA backend or device exists.
add_executable(yee_parity ${CMAKE_CURRENT_SOURCE_DIR}/gpu/parity.c)
target_link_libraries(yee_parity PRIVATE yee_solver)
# The example (CPML), a PEC cavity, the CPML reflection deck and the all-boundaries MPI deck
# (CPML, periodic, PEC faces, two sources).
foreach(deck inputs/dipole.cfg validation/cavity/cavity.cfg validation/cpml/cpml.cfg tests/mpi/box.cfg)
  get_filename_component(stem ${deck} NAME_WE)
  yee_add_test(NAME gpu_parity_${stem}
    COMMAND yee_parity ${CMAKE_SOURCE_DIR}/${deck} 500
    LABELS gpu SKIP77 TIMEOUT 600)
  set_tests_properties(gpu_parity_${stem} PROPERTIES RESOURCE_GROUPS "gpus:1")
endforeach()
