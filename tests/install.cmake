# `cmake --install` of this build into a scratch prefix, and the installed programs, man page,
# docs and example decks used from there (tests/install/check_install.sh); with libyee, the
# Python module imported from the installed (and moved) site folder runs an installed deck. Not
# the Python part in sanitized or fuzz builds (as tests/python.cmake): a python3 process cannot
# load an ASan-instrumented libyee without preloading the sanitizer runtime.
set(YEE_INSTALL_PY)
if(YEE_LIBRARY AND NOT YEE_SANITIZE AND NOT YEE_FUZZ)
  set(YEE_INSTALL_PY ${YEE_PYTHON} ${YEE_PYTHON_INSTALL_DIR})
endif()
yee_add_test(NAME cli_install LABELS unit TIMEOUT 120
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install/check_install.sh ${CMAKE_BINARY_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/install_files ${YEE_INSTALL_PY}
  PASS_REGEX "(^|\n)ok: installed")
