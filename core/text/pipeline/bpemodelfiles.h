// BpeModelFiles: reads a BPE model's vocab.json and merges.txt, refusing broken files clearly.
#pragma once

#include "text/pipeline/bpemodel.h"
#include "text/pipeline/bytelevelalphabet.h"

#include <string>

namespace headlens {

/// The two files of a BPE model as OpenAI's GPT-2 and huggingface/tokenizers BPE::from_file
/// read them: vocab.json, one JSON object of token -> id, and merges.txt, one "left right"
/// pair a line, lowest rank first, with an optional "#version" first line. Every problem throws
/// InputError naming the file (and the token or line) and what to do.
class BpeModelFiles
{
public:
    /// Ids above this are refused (a vocabulary needs a table this long).
    static constexpr int kMaxId = 1'000'000;

    /// The tokens of `json`. Refuses text that is not a JSON object, an id that is not a whole
    /// number in [0, kMaxId], and an id two tokens share. `name` starts every message.
    static BpeModel::Vocabulary readVocab(const std::string &json, const std::string &name);

    /// The merges of `text`, by rank. Refuses a line that is not two tokens separated by one
    /// space, a merge whose parts or result `vocabulary` lacks, and a merge listed twice.
    static BpeModel::MergeList readMerges(const std::string &text, const std::string &name,
                                          const BpeModel::Vocabulary &vocabulary);

    /// A byte-level vocabulary (GPT-2's, RoBERTa's) spells every token in `alphabet`'s byte
    /// symbols, except special tokens written literally ("<|endoftext|>"), and holds all 256 of
    /// them so that any text can be encoded. Refuses a vocabulary that does not.
    static void checkByteSymbols(const BpeModel::Vocabulary &vocabulary,
                                 const ByteLevelAlphabet &alphabet, const std::string &name);
};

} // namespace headlens
