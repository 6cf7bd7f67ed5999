// BertWordPieceFiles: BERT's tokenizer from vocab.txt, built as transformers' BertConverter does.
#pragma once

#include "text/pipeline/tokenizerpipeline.h"
#include "text/pipeline/wordpiecemodel.h"
#include "text/tokenizerconfig.h"

#include <string>

namespace headlens {

/// The fast tokenizer transformers makes from a BERT folder's vocab.txt
/// (convert_slow_tokenizer.py BertConverter, with BertTokenizer's defaults):
///   added tokens   [UNK] [SEP] [PAD] [CLS] [MASK], special, matched in the raw text
///                  ("[MASK]" typed in a text is that token; "[mask]" is not);
///   normalizer     BertNormalizer: clean_text, handle_chinese_chars = tokenize_chinese_chars
///                  (default true), lowercase = do_lower_case (default true), strip_accents
///                  as given, else as lowercase;
///   pre-tokenizer  BertPreTokenizer (white space removed, each punctuation character a piece);
///   model          WordPiece: unk_token, "##", max_input_chars_per_word 100;
///   post-processor "[CLS]:0 $A:0 [SEP]:0", pair "[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1";
///   decoder        WordPiece ("##", cleanup).
/// tokenizer_config.json (TokenizerConfig) may change the three flags and the special tokens'
/// text.
///
/// vocab.txt is read as transformers' load_vocab reads it: one token a line, its id the line's
/// number from 0, only the line break removed. Where transformers would go on with a broken
/// file, HeadLens refuses it with the line(s) named:
/// - a token on two lines: transformers keeps the later id and leaves the earlier one without
///   a token, so the model's rows no longer match; refused;
/// - a line ending in "\r" (Windows line breaks): transformers keeps the "\r" in every token,
///   so no word is found; refused;
/// - no unk_token ("[UNK]") in the file: the Rust WordPiece fails on the first unknown word;
///   refused (as is a config that sets unk_token, cls_token or sep_token to null).
/// An empty line is what transformers makes of it: the token "" with that line's id, which no
/// text produces (a second empty line is a repeated token). A special token the file lacks
/// ([MASK], [PAD]) gets the next id after the vocabulary, as transformers adds it.
class BertWordPieceFiles
{
public:
    /// More lines than this are refused (a vocabulary needs a table this long).
    static constexpr int kMaxTokens = 1'000'000;

    /// The tokens of vocab.txt `text` by id; `name` starts every message.
    static WordPieceModel::Vocabulary readVocab(const std::string &text, const std::string &name);
    /// Reads `vocabPath` and builds the tokenizer. Throws InputError naming the file (and line)
    /// or the tokenizer_config.json key that is wrong.
    static TokenizerPipeline load(const std::string &vocabPath, const TokenizerConfig &config);
    /// load() from the file's contents.
    static TokenizerPipeline fromText(const std::string &vocabText, const std::string &vocabName,
                                      const TokenizerConfig &config);
};

} // namespace headlens
