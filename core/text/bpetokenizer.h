// BpeTokenizer: GPT-2's tokenizer (vocab.json + merges.txt) as one configuration of the pipeline.
#pragma once

#include "text/pipeline/bytelevelpretokenizer.h"
#include "text/pipeline/tokenizerpipeline.h"

#include <memory>
#include <string>
#include <vector>

namespace headlens {

/// GPT-2's tokenizer, Radford et al. 2019, section 2.2, following openai/gpt-2 src/encoder.py,
/// built as a TokenizerPipeline the way Hugging Face's GPT-2 tokenizer.json describes it:
/// 1. added tokens: "<|endoftext|>" anywhere in the text becomes that one token (when the
///    vocabulary has it);
/// 2. no normalizer;
/// 3. pre-tokenizer ByteLevel (no prefix space, GPT-2's pattern, ByteLevelPreTokenizer):
///    pieces spelled in bytes_to_unicode symbols (a space is "Ġ", a newline "Ċ");
/// 4. model BPE (BpeModel): adjacent symbols merged, lowest merges.txt rank first, each
///    result looked up in vocab.json;
/// 5. no post-processor; decoder ByteLevel for labels and decode().
/// Invalid UTF-8 in the text is first replaced by U+FFFD (encoder.py takes a Python str).
/// Immutable after loading: every const member may be called from any thread.
class BpeTokenizer
{
public:
    static constexpr const char *kEndOfText = "<|endoftext|>";
    /// Ids above this are refused when loading (a vocabulary needs a table this long).
    static constexpr int kMaxId = 1'000'000;

    /// Reads the two files. Throws InputError naming the file (and the line of merges.txt or
    /// the token of vocab.json) when one is missing, is not valid JSON / not "a b" lines, gives
    /// an id outside [0, kMaxId] or twice, lacks one of the 256 byte symbols, or has a merge
    /// whose parts or result are not in the vocabulary, or repeats a merge.
    static BpeTokenizer load(const std::string &vocabPath, const std::string &mergesPath);

    /// load() from the files' contents; `vocabName` and `mergesName` start error messages.
    /// This is the function fuzzed by tests/fuzz (with encode()).
    static BpeTokenizer fromText(const std::string &vocabJson, const std::string &mergesText,
                                 const std::string &vocabName, const std::string &mergesName);

    /// The token ids of `utf8`. Never throws for any input bytes.
    std::vector<int> encode(const std::string &utf8) const { return m_pipeline.encode(utf8); }

    /// The pieces of step 3 (before bytes_to_unicode and merging), as UTF-8.
    std::vector<std::string> preTokenize(const std::string &utf8) const;

    /// The raw bytes a token stands for (may be part of a UTF-8 character); "" for an id that is
    /// not in the vocabulary.
    std::string tokenBytes(int id) const { return m_pipeline.tokenBytes(id); }
    /// The concatenated bytes of `ids`: decode(encode(t)) == t for valid UTF-8 `t`.
    std::string decode(const std::vector<int> &ids) const { return m_pipeline.decode(ids); }

    /// A label for views: the token's text with each space shown as "␣" (U+2423, the label
    /// HeadLens uses everywhere for spaces), a line break as "⏎", a tab as "⇥", other control
    /// characters as control pictures (see Tokenizer::displayLabel), and bytes that do not form a
    /// whole UTF-8 character in hex, "<0xE2><0x80>" (never broken bytes). "<|endoftext|>" stays as
    /// it is. An id outside the vocabulary is shown as "[id 123]".
    std::string displayLabel(int id) const { return m_pipeline.displayLabel(id); }

    /// True when `id` names a token.
    bool contains(int id) const { return m_pipeline.contains(id); }
    /// One past the largest id (ids may have gaps).
    int idLimit() const { return m_pipeline.idLimit(); }
    /// Number of tokens in vocab.json.
    int size() const { return m_size; }
    /// The id of "<|endoftext|>", or -1 when the vocabulary lacks it.
    int endOfTextId() const { return m_pipeline.addedTokens().idOf(kEndOfText); }
    /// The id of a token given in bytes_to_unicode form ("Ġworld"), or -1.
    int idOf(const std::string &symbol) const { return m_pipeline.idOf(symbol); }

    /// The components, for code that works with any tokenizer.
    const TokenizerPipeline &pipeline() const { return m_pipeline; }

private:
    TokenizerPipeline m_pipeline;
    std::shared_ptr<const ByteLevelPreTokenizer> m_preTokenizer; ///< also in m_pipeline
    int m_size = 0;
};

} // namespace headlens
