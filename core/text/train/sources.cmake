# Sources of core/text/train/: learning a byte-level BPE tokenizer from text, as Hugging Face
# tokenizers' BpeTrainer does, and writing it as tokenizer.json.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/bpepairqueue.cpp
    ${CMAKE_CURRENT_LIST_DIR}/bpetokenizerjsonwriter.cpp
    ${CMAKE_CURRENT_LIST_DIR}/bpetrainer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/bpetrainersettings.cpp
    ${CMAKE_CURRENT_LIST_DIR}/bpetrainingresult.cpp
    ${CMAKE_CURRENT_LIST_DIR}/bpetrainingwords.cpp
    ${CMAKE_CURRENT_LIST_DIR}/bpewordcounts.cpp
)
