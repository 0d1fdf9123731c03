# The catalogue of bad inputs (tests/errors/cases.txt): one test per line, each asserting the
# exit status (through tests/expect.sh) and the exact message. docs/errors.md explains them.
# Brackets and semicolons would confuse CMake's list splitting: hide them while splitting.
file(READ ${CMAKE_CURRENT_LIST_DIR}/errors/cases.txt yee_error_text)
string(REPLACE "[" "<LB>" yee_error_text "${yee_error_text}")
string(REPLACE "]" "<RB>" yee_error_text "${yee_error_text}")
string(REPLACE ";" "<SC>" yee_error_text "${yee_error_text}")
string(REPLACE "\n" ";" yee_error_cases "${yee_error_text}")
foreach(line ${yee_error_cases})
  if(line MATCHES "^#" OR line STREQUAL "")
    continue()
  endif()
  string(REPLACE " | " ";" fields "${line}")
  list(LENGTH fields nfields)
  if(NOT nfields EQUAL 4)
    message(FATAL_ERROR "tests/errors/cases.txt: malformed line (want 4 fields): ${line}")
  endif()
  list(GET fields 0 name)
  list(GET fields 1 status)
  list(GET fields 2 args)
  list(GET fields 3 expected)
  # the emulated build runs the CUDA backend, so it cannot be unavailable there
  if(name STREQUAL "backend_cuda_unavailable" AND YEE_HAVE_CUDA STREQUAL "EMULATED")
    continue()
  endif()
  foreach(v args expected)
    string(REPLACE "<LB>" "[" ${v} "${${v}}")
    string(REPLACE "<RB>" "]" ${v} "${${v}}")
    string(REPLACE "<SC>" ";" ${v} "${${v}}")
  endforeach()
  separate_arguments(args UNIX_COMMAND "${args}")
  yee_literal_regex(re "${expected}")
  yee_add_test(NAME error_${name} LABELS unit TIMEOUT 60
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/expect.sh status=${status} ${CMAKE_CURRENT_LIST_DIR}/errors
            $<TARGET_FILE:yee> ${args}
    PASS_REGEX "${re}")
endforeach()
