// TokenizerFolder: the tokenizer of a Hugging Face model folder, from whichever files it has.
#pragma once

#include "text/pipeline/tokenizerpipeline.h"

#include <string>

namespace headlens {

/// The tokenizer files a family's folder may hold when it has no tokenizer.json.
enum class SlowTokenizer
{
    Gpt2Bpe,      ///< vocab.json + merges.txt, as BpeTokenizer (GPT-2)
    RobertaBpe,   ///< vocab.json + merges.txt, as RobertaBpeFiles (RoBERTa)
    BertWordPiece ///< vocab.txt, as BertWordPieceFiles (BERT, DistilBERT)
};

/// What transformers' AutoTokenizer.from_pretrained(folder) encodes with:
/// 1. tokenizer.json when the folder has one (TokenizerJson), else the family's slow files
///    converted as convert_slow_tokenizer.py does (SlowTokenizer);
/// 2. tokenizer_config.json when present (TokenizerConfig): do_lower_case,
///    tokenize_chinese_chars, strip_accents (BERT's files), add_prefix_space (RoBERTa's) and
///    the special tokens' text shape the slow tokenizers;
/// 3. add_bos_token / add_eos_token, when the config has either, rebuild the post-processor
///    of a tokenizer.json as LlamaTokenizerFast.update_post_processor does (transformers 4.x;
///    5.x does the same for every class when the config has either key):
///      single "[bos:0] $A:0 [eos:0]", pair single + " [bos:1] $B:1 [eos:1]",
///    each bracket present when its flag is true; a flag the config leaves out takes
///    LlamaTokenizerFast's default (add_bos_token true, add_eos_token false; transformers 5.x
///    takes false); bos_token / eos_token from the config, else "<s>" / "</s>". The slow
///    BERT, RoBERTa and GPT-2 tokenizers ignore the two keys, as their transformers classes
///    do.
/// GPT-2's slow files give exactly what BpeTokenizer gives.
class TokenizerFolder
{
public:
    /// tokenizer.json when the folder has one, else the family's slow files (vocab.json +
    /// merges.txt, or vocab.txt), adjusted by tokenizer_config.json when present. Throws
    /// InputError naming the folder and the files it looked for when none is there, or the
    /// file (and place) that is bad.
    static TokenizerPipeline load(const std::string &dir, SlowTokenizer slow);
};

} // namespace headlens
