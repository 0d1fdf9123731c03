# Two steps per backend call (kernels/backend.h step_pair) write the bytes of one step per call:
# the same deck with YEE_STEP_PAIRS=0, every dataset compared bit for bit. The first run must
# report paired steps, so the test cannot pass by never taking the two-step path.
set(YEE_PAIRS_DIR ${CMAKE_CURRENT_BINARY_DIR}/pairs_files)
set(YEE_PAIRS_RUN "'$<TARGET_FILE:yee>' run '${CMAKE_CURRENT_LIST_DIR}/pairs/pairs.cfg'")
yee_add_test(NAME pairs_identical LABELS unit TIMEOUT 120
  COMMAND sh -c "rm -rf '${YEE_PAIRS_DIR}' && ${YEE_PAIRS_RUN} --out '${YEE_PAIRS_DIR}/a' | \
grep 'of the steps ran two at a time' && YEE_STEP_PAIRS=0 ${YEE_PAIRS_RUN} --quiet \
--out '${YEE_PAIRS_DIR}/b' && '${YEE_PYTHON}' '${CMAKE_SOURCE_DIR}/tests/mpi/same_fields.py' \
'${YEE_PAIRS_DIR}/b/pairs.h5' '${YEE_PAIRS_DIR}/a/pairs.h5' pairs")
