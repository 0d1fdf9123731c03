# Deck fuzzing (label fuzz): a clang/libFuzzer build of tests/fuzz/fuzz_deck.c run for 60 s.
# The fuzz target itself is only built in that separate clang build (-DYEE_FUZZ=ON).
if(YEE_FUZZ)
  add_executable(yee_fuzz_deck ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_deck.c)
  target_link_libraries(yee_fuzz_deck PRIVATE yee_solver)
  target_link_options(yee_fuzz_deck PRIVATE -fsanitize=fuzzer,address,undefined)
else()
  yee_add_test(NAME fuzz_deck LABELS fuzz TIMEOUT 400
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/fuzz/run_fuzz.sh ${CMAKE_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/fuzz 60)
endif()
