# Sources of core/text/pipeline/: the tokenizer as components (added tokens, normalizer,
# pre-tokenizer, model, post-processor, decoder). GPT-2's BpeTokenizer composes them.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/addedtokens.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bpemodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bpemodelfiles.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bpeword.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bytelevelalphabet.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/byteleveldecoder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bytelevelpretokenizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/regexsplit.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/tokenizerpipeline.cpp
)
