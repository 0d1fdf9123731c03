# The Debian package (debian/): built from a copy of the tree with dpkg-buildpackage, installed
# with apt-get, the installed yee run on an installed example and plotted, then removed
# (tests/deb/check_deb.sh; skipped without root or debhelper). Label deb; minutes (a full build).
yee_add_test(NAME deb_package LABELS deb SKIP77 TIMEOUT 1800
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/deb/check_deb.sh ${CMAKE_SOURCE_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/deb_files)
