// RobertaBpeFiles: RoBERTa's tokenizer from vocab.json + merges.txt, as RobertaConverter builds it.
#pragma once

#include "text/pipeline/tokenizerpipeline.h"
#include "text/tokenizerconfig.h"

#include <string>

namespace headlens {

/// The fast tokenizer transformers makes from a RoBERTa folder's vocab.json and merges.txt
/// (convert_slow_tokenizer.py RobertaConverter, with RobertaTokenizer's defaults):
///   added tokens   <s> </s> <unk> <pad> <mask>, special, matched in the raw text; <mask>
///                  with lstrip, so "The <mask>." takes the space before it along, as
///                  RobertaTokenizer's mask token "behaves like a normal word";
///   no normalizer; pre-tokenizer ByteLevel (add_prefix_space from tokenizer_config.json,
///   default false; GPT-2's pattern); model BPE; decoder ByteLevel;
///   post-processor RobertaProcessing: "<s> A </s>", pair "<s> A </s> </s> B </s>", every
///                  type id 0 (processors/roberta.rs; RoBERTa has no token types).
/// The files are checked as for GPT-2 (BpeModelFiles): a JSON object of unique ids, "a b"
/// merge lines whose parts are in the vocabulary, all 256 byte symbols. tokenizer_config.json
/// may change add_prefix_space and the special tokens' text (cls_token and sep_token may not
/// be null). A special token vocab.json lacks gets the next id after the vocabulary.
class RobertaBpeFiles
{
public:
    /// Throws InputError naming the file (and token or line) or the config key that is wrong.
    static TokenizerPipeline load(const std::string &vocabPath, const std::string &mergesPath,
                                  const TokenizerConfig &config);
    /// load() from the files' contents; the names start messages.
    static TokenizerPipeline fromText(const std::string &vocabJson, const std::string &mergesText,
                                      const std::string &vocabName, const std::string &mergesName,
                                      const TokenizerConfig &config);
};

} // namespace headlens
