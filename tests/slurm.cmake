# `yee sweep --slurm` on a real Slurm: tests/slurm/cluster.sh starts a one-node cluster (munged,
# slurmctld, slurmd, all under the build tree) for the slurm-labelled tests and stops it after
# them; check_slurm.py submits sweeps to it (docs/cluster.md). Where the cluster cannot start (not
# root, Slurm not installed) every test skips with cluster.sh's reason. They run one at a time:
# the cases time signals against runs in progress.
set(YEE_SLURM_DIR ${CMAKE_CURRENT_BINARY_DIR}/slurm_cluster)
set(YEE_SLURM_SRC ${CMAKE_CURRENT_LIST_DIR}/slurm)
add_test(NAME slurm_cluster_start COMMAND sh ${YEE_SLURM_SRC}/cluster.sh start ${YEE_SLURM_DIR})
add_test(NAME slurm_cluster_stop COMMAND sh ${YEE_SLURM_SRC}/cluster.sh stop ${YEE_SLURM_DIR})
set_tests_properties(slurm_cluster_start PROPERTIES FIXTURES_SETUP yee_slurm LABELS slurm
                     SKIP_RETURN_CODE 77 TIMEOUT 60)
set_tests_properties(slurm_cluster_stop PROPERTIES FIXTURES_CLEANUP yee_slurm LABELS slurm
                     TIMEOUT 60)
foreach(case array ranks cancel preempt lock)
  yee_add_test(NAME slurm_${case} LABELS slurm SKIP77 TIMEOUT 400 PROCESSORS 2
    COMMAND ${YEE_PYTHON} ${YEE_SLURM_SRC}/check_slurm.py ${case} $<TARGET_FILE:yee>
            ${CMAKE_CURRENT_BINARY_DIR}/slurm_files ${YEE_SLURM_DIR}
    PASS_REGEX "PASS slurm_${case}")
  set_tests_properties(slurm_${case} PROPERTIES FIXTURES_REQUIRED yee_slurm
                       RESOURCE_LOCK yee_slurm_cluster)
endforeach()
