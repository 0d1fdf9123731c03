# kernels/cuda/emu/rewrite.cmake -- turns a .cu file into host C++ for the emulated build:
#   cmake -DIN=kernels/cuda/x.cu -DOUT=build/.../x.cu.cpp -DPRELUDE=header -P rewrite.cmake
# Each launch `name<<<config>>>(args)` becomes `YEE_EMU_LAUNCH(name, config)(args)`, token for
# token on the same lines, and a #line directive names the .cu, so compiler messages, debugger
# lines and the emulator's diagnostics (__FILE__, __LINE__) point into the .cu itself.
# PRELUDE (a header) is included first: the descriptions of the project's kernel argument structs.
file(READ "${IN}" src)
string(REGEX MATCHALL "<<<" opens "${src}")
string(REGEX REPLACE "([A-Za-z_][A-Za-z0-9_:]*)[ \t]*<<<" "YEE_EMU_LAUNCH(\\1, " src "${src}")
string(REGEX MATCHALL "YEE_EMU_LAUNCH\\(" rewritten "${src}")
list(LENGTH opens nopen)
list(LENGTH rewritten nrewritten)
if(NOT nopen EQUAL nrewritten)
  message(FATAL_ERROR "${IN}: ${nopen} launches, but only ${nrewritten} have the form name<<<...>>>")
endif()
string(REGEX REPLACE ">>>[ \t]*\\(" ")(" src "${src}")
if(src MATCHES ">>>")
  message(FATAL_ERROR "${IN}: a '>>>' that is not followed by the kernel's argument list")
endif()
set(head "// generated from ${IN} by kernels/cuda/emu/rewrite.cmake: edit the .cu, not this file\n")
if(PRELUDE)
  string(APPEND head "#include \"${PRELUDE}\"\n")
endif()
string(APPEND head "#line 1 \"${IN}\"\n")
file(WRITE "${OUT}.tmp" "${head}${src}")
# only touch OUT when it changes, so an unchanged .cu does not recompile
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
file(REMOVE "${OUT}.tmp")
