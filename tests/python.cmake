# The Python module yee (python/yee/, over libyee), label `python`: pytest runs python/tests/
# against this build's libyee and yee program (YEE_LIB, YEE_BIN), one ctest test per file so that
# ctest -j spreads them: python_module (runs and bits against `yee run`, errors, progress),
# python_sweep (a Python loop against `yee sweep`), python_tutorial (docs/tutorials/ring_python.py
# with a short run). Not in sanitized or fuzz builds: libyee would need the sanitizer runtime
# preloaded into the Python interpreter.
if(TARGET yee_shared AND NOT YEE_SANITIZE AND NOT YEE_FUZZ)
  foreach(t module:test_run sweep:test_sweep tutorial:test_tutorial)
    string(REPLACE ":" ";" t "${t}")
    list(GET t 0 name)
    list(GET t 1 file)
    yee_add_test(NAME python_${name} LABELS python TIMEOUT 600 PROCESSORS 2
      COMMAND env YEE_LIB=$<TARGET_FILE:yee_shared> YEE_BIN=$<TARGET_FILE:yee>
              PYTHONDONTWRITEBYTECODE=1 OMP_NUM_THREADS=2
              ${YEE_PYTHON} -m pytest -q -p no:cacheprovider
              ${CMAKE_SOURCE_DIR}/python/tests/${file}.py)
  endforeach()
endif()
