# python/install_paths.cmake -- run by `cmake --install` (python/CMakeLists.txt): writes the
# installed module's yee/_installed.py, which tells python/yee/_lib.py where the installed
# libyee.so and yee program are. Paths are relative to the package folder, worked out from the
# final locations (the prefix of this install, without DESTDIR, which only stages the files),
# so a prefix copied or moved elsewhere still finds its own library, never a build tree.
# In: CMAKE_INSTALL_PREFIX, YEE_PY_DIR, YEE_LIB_DIR, YEE_BIN_DIR (each relative to the prefix or
# absolute), YEE_STAGE (a scratch file in the build tree).
foreach(v YEE_PY_DIR YEE_LIB_DIR YEE_BIN_DIR)
  if(NOT IS_ABSOLUTE "${${v}}")
    set(${v} "${CMAKE_INSTALL_PREFIX}/${${v}}")
  endif()
endforeach()
file(RELATIVE_PATH lib_rel "${YEE_PY_DIR}/yee" "${YEE_LIB_DIR}/libyee.so")
file(RELATIVE_PATH bin_rel "${YEE_PY_DIR}/yee" "${YEE_BIN_DIR}/yee")
file(WRITE "${YEE_STAGE}" "\"\"\"yee._installed -- by cmake --install (python/install_paths.cmake):
where this installed package's libyee.so and yee program are, relative to the package, so that
the installed tree still works when moved as a whole. Absent from a source tree.\"\"\"
import os

_here = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.normpath(os.path.join(_here, \"${lib_rel}\"))
PROGRAM = os.path.normpath(os.path.join(_here, \"${bin_rel}\"))
")
# file(INSTALL) adds DESTDIR and lists the file in install_manifest.txt, as install() does
file(INSTALL DESTINATION "${YEE_PY_DIR}/yee" TYPE FILE FILES "${YEE_STAGE}")
