# Sources of core/model/ (GPT-2 checkpoints: safetensors, byte-level BPE, the forward pass).
# The safetensors reader and the BPE tokenizer live with their kind in io/ and text/.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/gpt2config.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gpt2weights.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gpt2ops.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gpt2model.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tokenpredictions.cpp
    ${CMAKE_CURRENT_LIST_DIR}/../io/safetensorsfile.cpp
    ${CMAKE_CURRENT_LIST_DIR}/../text/bpetokenizer.cpp
)
# One handle on an opened model, whatever its family (issue 20): ModelOpener tells the families
# apart, OpenedModel runs them, ModelRun is what every front end reads.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/openedmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gpt2openedmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toyopenedmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/modelopener.cpp
)
