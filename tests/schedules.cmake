# The tuned CPU backend's schedules (kernels/backend.h advance: several steps per sweep) write the
# bytes of the reference backend (cpu-reference, one op at a time): every example and validation
# deck, shortened, and a deck made to put every kind of source and monitor inside the fused steps
# (tests/schedules_deck.cfg); tests/backends_agree.py compares every dataset and file. Each tuned
# run must report fused steps, so a test cannot pass by never taking that path: periodic x and y
# axes of one rank included (the backend wraps them, setup.wrap: x, y and z), Bloch cells too
# (complex fields: the backend's advance_complex wraps them with their phase).
# (tests/unit/cpu_schedules.c does the same op by op, with random states and thread counts.)
file(GLOB YEE_SCHEDULE_DECKS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/inputs/*.cfg
     ${CMAKE_SOURCE_DIR}/validation/*/*.cfg)
list(REMOVE_ITEM YEE_SCHEDULE_DECKS ${CMAKE_SOURCE_DIR}/inputs/sweep_slab.cfg) # a sweep
list(FILTER YEE_SCHEDULE_DECKS EXCLUDE REGEX "/validation/modes/") # cross-sections for yee modes
list(APPEND YEE_SCHEDULE_DECKS ${CMAKE_CURRENT_LIST_DIR}/schedules_deck.cfg)
list(APPEND YEE_SCHEDULE_DECKS ${CMAKE_CURRENT_LIST_DIR}/mirror/mirror_eighth.cfg) # pmc and pec walls
list(APPEND YEE_SCHEDULE_DECKS ${CMAKE_CURRENT_LIST_DIR}/twod/rod2d.cfg) # 2-D
list(APPEND YEE_SCHEDULE_DECKS ${CMAKE_CURRENT_LIST_DIR}/bloch/bloch3d.cfg) # 3-D Bloch cell
list(APPEND YEE_SCHEDULE_DECKS ${CMAKE_CURRENT_LIST_DIR}/mpi/boundaries.cfg) # x, y, z periodic
list(APPEND YEE_SCHEDULE_DECKS ${CMAKE_CURRENT_LIST_DIR}/twod/rod3d.cfg) # z periodic, one cell
foreach(deck ${YEE_SCHEDULE_DECKS})
  get_filename_component(stem ${deck} NAME_WE)
  get_filename_component(dir ${deck} DIRECTORY)
  get_filename_component(folder ${dir} NAME)
  set(name schedules_agree_${folder}_${stem})
  yee_add_test(NAME ${name} LABELS unit TIMEOUT 300
    COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/backends_agree.py --yee $<TARGET_FILE:yee>
            --deck ${deck} --work ${CMAKE_CURRENT_BINARY_DIR}/schedules/${name}
            --backends cpu-reference cpu --expect "ran in fused sweeps")
endforeach()

# The lists of currents of a call's steps (solver/step.c): a TFSF box too large for 16 steps a
# call takes 8, in whole sweeps, with the reference's bytes.
yee_add_test(NAME schedules_agree_step_lists LABELS unit TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/backends_agree.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/schedules_lists.cfg
          --work ${CMAKE_CURRENT_BINARY_DIR}/schedules/step_lists
          --backends cpu-reference cpu --expect "up to 8 steps a call")

# The DFT samples inside the calls (kernels/backend.h advance_dft): tests/schedules_deck.cfg
# samples its DFTs every 2nd step; held by the backend its calls average 5.3 steps, and with
# YEE_DFT_HOLD=0 (every call ends at a sample) 2.1, both with the reference's bytes.
yee_add_test(NAME schedules_agree_dft_held LABELS unit TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/backends_agree.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/schedules_deck.cfg
          --work ${CMAKE_CURRENT_BINARY_DIR}/schedules/dft_held
          --backends cpu-reference cpu --expect "up to 16 steps a call, 5.3 on average")
yee_add_test(NAME schedules_agree_dft_unheld LABELS unit TIMEOUT 300
  COMMAND ${YEE_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/backends_agree.py --yee $<TARGET_FILE:yee>
          --deck ${CMAKE_CURRENT_LIST_DIR}/schedules_deck.cfg
          --work ${CMAKE_CURRENT_BINARY_DIR}/schedules/dft_unheld
          --backends cpu-reference cpu --expect "up to 16 steps a call, 2.1 on average")
set_property(TEST schedules_agree_dft_unheld APPEND PROPERTY ENVIRONMENT "YEE_DFT_HOLD=0")
