# Sources of core/corpus/: a model's heads over a corpus file (issue 15): their statistics'
# averages, their induction scores and a map of how alike they attend.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/corpusfile.cpp
    ${CMAKE_CURRENT_LIST_DIR}/headdivergences.cpp
    ${CMAKE_CURRENT_LIST_DIR}/classicalscaling.cpp
    ${CMAKE_CURRENT_LIST_DIR}/corpusstatistics.cpp
    ${CMAKE_CURRENT_LIST_DIR}/corpusrun.cpp
    ${CMAKE_CURRENT_LIST_DIR}/corpusexport.cpp
    ${CMAKE_CURRENT_LIST_DIR}/datasetfile.cpp
    ${CMAKE_CURRENT_LIST_DIR}/datasetexperiment.cpp
    ${CMAKE_CURRENT_LIST_DIR}/datasetexport.cpp
)
