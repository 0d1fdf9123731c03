# The layering of docs/design.md "Map": no folder includes a folder above it.
yee_add_test(NAME layers_point_down LABELS unit TIMEOUT 60
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/layers.sh ${CMAKE_SOURCE_DIR})
