// BpeTokenizer: GPT-2's byte-level BPE (vocab.json + merges.txt), exactly as OpenAI's encoder.py.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace headlens {

/// GPT-2's tokenizer, Radford et al. 2019, section 2.2, following openai/gpt-2 src/encoder.py:
/// 1. "<|endoftext|>" anywhere in the text becomes that one token (when the vocabulary has it);
/// 2. the rest is split by the pre-tokenization pattern
///    's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
///    with Unicode categories from PCRE2 (UTF + UCP);
/// 3. each piece's UTF-8 bytes become printable characters by bytes_to_unicode() (a space is
///    "Ġ", a newline "Ċ"), and adjacent symbols are merged, lowest merges.txt rank first;
/// 4. each resulting symbol is looked up in vocab.json.
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
    std::vector<int> encode(const std::string &utf8) const;

    /// The pieces of step 2 (before bytes_to_unicode and merging), as UTF-8.
    std::vector<std::string> preTokenize(const std::string &utf8) const;

    /// The raw bytes a token stands for (may be part of a UTF-8 character); "" for an id that is
    /// not in the vocabulary.
    std::string tokenBytes(int id) const;
    /// The concatenated bytes of `ids`: decode(encode(t)) == t for valid UTF-8 `t`.
    std::string decode(const std::vector<int> &ids) const;

    /// A label for views: the token's text with each space shown as "␣" (U+2423, the label
    /// HeadLens uses everywhere for spaces), a line break as "⏎", a tab as "⇥", other control
    /// characters as control pictures (see Tokenizer::displayLabel), and bytes that do not form a
    /// whole UTF-8 character as U+FFFD "�" (never broken bytes). "<|endoftext|>" stays as it is.
    /// An id outside the vocabulary is shown as "[id 123]".
    std::string displayLabel(int id) const;

    /// True when `id` names a token.
    bool contains(int id) const;
    /// One past the largest id (ids may have gaps).
    int idLimit() const { return static_cast<int>(m_tokens.size()); }
    /// Number of tokens in vocab.json.
    int size() const { return m_count; }
    /// The id of "<|endoftext|>", or -1 when the vocabulary lacks it.
    int endOfTextId() const { return m_endOfText; }
    /// The id of a token given in bytes_to_unicode form ("Ġworld"), or -1.
    int idOf(const std::string &symbol) const;

private:
    struct Pattern;
    /// The halves of fromText(): vocab.json (after m_pattern is set), then merges.txt.
    void readVocab(const std::string &json, const std::string &vocabName);
    void readMerges(const std::string &text, const std::string &mergesName);
    void appendPiece(const std::string &piece, std::vector<int> &ids) const;

    std::vector<std::string> m_tokens;            ///< by id: the token's raw bytes
    std::vector<bool> m_present;                  ///< by id: vocab.json names it
    std::unordered_map<std::string, int> m_ids;   ///< bytes_to_unicode form -> id
    std::unordered_map<std::string, int> m_ranks; ///< "a b" -> merge rank (0 = first)
    std::shared_ptr<const Pattern> m_pattern;
    int m_count = 0;
    int m_endOfText = -1;
};

} // namespace headlens
