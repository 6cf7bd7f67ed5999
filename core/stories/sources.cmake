# Sources of core/stories/: the default corpus a language model trains on, and the scores of
# heads against the relations its generator knows.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/storygenerator.cpp
    ${CMAKE_CURRENT_LIST_DIR}/relationscores.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tokenspans.cpp
    ${CMAKE_CURRENT_LIST_DIR}/storywindow.cpp
)
