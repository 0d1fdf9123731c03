# `cmake --install` of this build into a scratch prefix, and the installed programs, man page,
# docs and example decks used from there (tests/install/check_install.sh).
yee_add_test(NAME cli_install LABELS unit TIMEOUT 120
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install/check_install.sh ${CMAKE_BINARY_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/install_files
  PASS_REGEX "^ok: ")
