# Sources of core/train/ (the toy attention model, its backpropagation, Adam and the tasks).
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/toymodelconfig.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toyparameters.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toymodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toytask.cpp
    ${CMAKE_CURRENT_LIST_DIR}/adamoptimizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/headscores.cpp
    ${CMAKE_CURRENT_LIST_DIR}/trainingsettings.cpp
    ${CMAKE_CURRENT_LIST_DIR}/trainedmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/trainer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toymodelfile.cpp
)
