# Sources of core/text/pipeline/ and core/text/json/: the tokenizer as components (added
# tokens, normalizers, pre-tokenizers, models, post-processors, decoders) and the readers of
# Hugging Face's tokenizer.json; the readers of a folder's slow tokenizer files (vocab.txt,
# vocab.json + merges.txt) and tokenizer_config.json, which compose the same components.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/bertwordpiecefiles.cpp
    ${CMAKE_CURRENT_LIST_DIR}/robertabpefiles.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tokenizerconfig.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tokenizerfolder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tokenizerjson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/bytetokenizerjson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/printableline.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json/decoderjson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json/jsonnode.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json/metaspacejson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json/modeljson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json/normalizerjson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json/postprocessorjson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json/pretokenizerjson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/addedtokens.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bertnormalizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bpemodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bpemodelfiles.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bpeword.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bytefallbackdecoder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bytelevelalphabet.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/byteleveldecoder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/bytelevelpretokenizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/charactersplitpretokenizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/metaspacedecoder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/metaspacepretokenizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/normalizersequence.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/pretokenizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/pretokenizersequence.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/replacenormalizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/splitdelimiter.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/splitpretokenizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/stripaccentsnormalizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/stripdecoder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/stripnormalizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/templateprocessing.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/textpattern.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/tokenizerpipeline.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/tokentrie.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/tokenvocabulary.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/unicodetext.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/whitespacepretokenizer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/wordpiecedecoder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/pipeline/wordpiecemodel.cpp
)
