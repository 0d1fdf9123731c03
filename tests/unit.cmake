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
yee_add_test(NAME unit_dft_decimation_broadband LABELS unit TIMEOUT 120
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/unit/check_decimation.py $<TARGET_FILE:yee>
          ${CMAKE_CURRENT_LIST_DIR}/unit/decimation_broadband.cfg
          ${CMAKE_CURRENT_BINARY_DIR}/decimation_broadband)

# Each schedule of the tuned CPU backend (advance: the fused sweep, the K-step wavefront, also
# from skewed thread splits) gives the bytes of the reference backend's ops, step by step (about
# 35 s; 70 s under ASan).
add_executable(yee_test_cpu_schedules ${CMAKE_CURRENT_LIST_DIR}/unit/cpu_schedules.c)
target_link_libraries(yee_test_cpu_schedules PRIVATE yee_test_support)
yee_add_test(NAME unit_cpu_schedules LABELS unit TIMEOUT 240 COMMAND yee_test_cpu_schedules)

# The CPU schedules' thread blocks tile the layers, keep their least size and balance the
# estimated work (CPML slabs dearer), in 3-D and in a 2-D run's rows; they follow given shares
# (the threads' measured speeds), whose update and use by a real sweep are checked too.
add_executable(yee_test_cpu_blocks ${CMAKE_CURRENT_LIST_DIR}/unit/cpu_blocks.c)
target_link_libraries(yee_test_cpu_blocks PRIVATE yee_test_support)
yee_add_test(NAME unit_cpu_blocks LABELS unit TIMEOUT 60 COMMAND yee_test_cpu_blocks)

# The CPU backend's DFT sums, added a batch of samples at a time, are the bytes of one sample at
# a time (full and partial batches, read back mid-run, replaced while samples are held).
add_executable(yee_test_cpu_dft_batch ${CMAKE_CURRENT_LIST_DIR}/unit/cpu_dft_batch.c)
target_link_libraries(yee_test_cpu_dft_batch PRIVATE yee_test_support)
yee_add_test(NAME unit_cpu_dft_batch LABELS unit TIMEOUT 60 COMMAND yee_test_cpu_dft_batch)

# The CUDA backend's thread blocks are legal launches that cover their box without more than
# twice the threads it has cells (kernels/cuda/launch_shape.h; host arithmetic, every build).
add_executable(yee_test_launch_shape ${CMAKE_CURRENT_LIST_DIR}/unit/launch_shape.c)
target_link_libraries(yee_test_launch_shape PRIVATE yee_common)
yee_add_test(NAME unit_launch_shape LABELS unit TIMEOUT 60 COMMAND yee_test_launch_shape)

# The stability analysis of dispersive updates against what runs showed (solver/stability.c).
add_executable(yee_test_stability ${CMAKE_CURRENT_LIST_DIR}/unit/stability.c)
target_link_libraries(yee_test_stability PRIVATE yee_solver)
yee_add_test(NAME unit_stability LABELS unit TIMEOUT 120 COMMAND yee_test_stability)
# ... and the deck it refuses at Courant 0.99 runs at the limit the analysis gives (4000 steps,
# health checks every 500: a blow-up fails the run).
yee_add_test(NAME unit_stability_limit_runs LABELS unit TIMEOUT 300
  COMMAND $<TARGET_FILE:yee> run ${CMAKE_SOURCE_DIR}/tests/errors/drude_strong.cfg --quiet
          --set simulation.courant=0.855 --out ${CMAKE_CURRENT_BINARY_DIR}/stability_limit)

# Resonances from a real series: each mode once (harminv's negative-frequency mirror dropped),
# the documented |Q| threshold (postproc/harminv_modes.c).
add_executable(yee_test_harminv_modes ${CMAKE_CURRENT_LIST_DIR}/unit/harminv_modes.c)
target_link_libraries(yee_test_harminv_modes PRIVATE yee_postproc PkgConfig::HARMINV)
yee_add_test(NAME unit_harminv_modes LABELS unit COMMAND yee_test_harminv_modes
  PASS_REGEX "PASS unit_harminv_modes")

# common/yee_num.c: the strict parsers of command-line numbers ("12x", "", overflow, NaN, 2x2).
add_executable(yee_test_num ${CMAKE_CURRENT_LIST_DIR}/unit/num.c)
target_link_libraries(yee_test_num PRIVATE yee_common)
yee_add_test(NAME unit_cli_numbers LABELS unit TIMEOUT 60 COMMAND yee_test_num
  PASS_REGEX "PASS unit_num")

# common/yee_mpi_env.c: a singleton's Open MPI settings for MPI_Init only (0.3 s less per yee
# command), none under a launcher, the user's own kept.
add_executable(yee_test_mpi_env ${CMAKE_CURRENT_LIST_DIR}/unit/mpi_env.c)
target_link_libraries(yee_test_mpi_env PRIVATE yee_common MPI::MPI_C)
yee_add_test(NAME unit_mpi_env LABELS unit TIMEOUT 60 COMMAND yee_test_mpi_env
  PASS_REGEX "PASS unit_mpi_env")

# Graded mesh lines (model/mesh.c) and the nodes on them (model/nodes.c).
add_executable(yee_test_mesh ${CMAKE_CURRENT_LIST_DIR}/unit/mesh.c)
target_link_libraries(yee_test_mesh PRIVATE yee_model m)
yee_add_test(NAME unit_mesh LABELS unit TIMEOUT 60 COMMAND yee_test_mesh)

# The CPU backend flushes subnormal floats in every thread that steps fields (common/yee_fp.h).
add_executable(yee_test_fp_mode ${CMAKE_CURRENT_LIST_DIR}/unit/fp_mode.c)
target_link_libraries(yee_test_fp_mode PRIVATE yee_test_support OpenMP::OpenMP_C)
yee_add_test(NAME unit_fp_mode LABELS unit TIMEOUT 60 COMMAND yee_test_fp_mode)
