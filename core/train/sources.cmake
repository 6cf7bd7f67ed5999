# Sources of core/train/ (the trainable decoder, its backpropagation, AdamW, the toy tasks and
# the batches of a text).
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/toymodelconfig.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toyparameters.cpp
    ${CMAKE_CURRENT_LIST_DIR}/dropoutmask.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toymodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toytask.cpp
    ${CMAKE_CURRENT_LIST_DIR}/adamoptimizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/learningrateschedule.cpp
    ${CMAKE_CURRENT_LIST_DIR}/textbatches.cpp
    ${CMAKE_CURRENT_LIST_DIR}/repeatedtokens.cpp
    ${CMAKE_CURRENT_LIST_DIR}/languagemodelpreset.cpp
    ${CMAKE_CURRENT_LIST_DIR}/trainingtext.cpp
    ${CMAKE_CURRENT_LIST_DIR}/trainingtokens.cpp
    ${CMAKE_CURRENT_LIST_DIR}/trainingmemory.cpp
    ${CMAKE_CURRENT_LIST_DIR}/languagemodelcheck.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tokensampler.cpp
    ${CMAKE_CURRENT_LIST_DIR}/headlensgptformat.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gpt2folderwriter.cpp
    ${CMAKE_CURRENT_LIST_DIR}/traininglog.cpp
    ${CMAKE_CURRENT_LIST_DIR}/storyprobe.cpp
    ${CMAKE_CURRENT_LIST_DIR}/headscores.cpp
    ${CMAKE_CURRENT_LIST_DIR}/headpatternscores.cpp
    ${CMAKE_CURRENT_LIST_DIR}/trainingsettings.cpp
    ${CMAKE_CURRENT_LIST_DIR}/trainedmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/trainer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toymodelfile.cpp
)
