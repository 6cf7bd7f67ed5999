// TokenizerConfig: what HeadLens reads of a model folder's tokenizer_config.json.
#pragma once

#include "text/pipeline/addedtokens.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace headlens {

class TokenizerModel;

/// The keys of transformers' tokenizer_config.json (the init arguments of its tokenizer
/// classes) that change which ids a text gets; every other key is ignored:
///   do_lower_case, tokenize_chinese_chars, strip_accents   BERT's basic tokenizer;
///   add_prefix_space                                      RoBERTa's ByteLevel;
///   add_bos_token, add_eos_token                          LlamaTokenizerFast's template;
///   bos_token, eos_token, unk_token, sep_token, pad_token, cls_token, mask_token
///       a special token's text, as a string ("[MASK]") or as transformers saves an
///       AddedToken ({"content": "<mask>", "lstrip": true, ...}); null means none.
/// A flag that is null counts as unset (transformers' default applies). A value of the wrong
/// kind is refused with an InputError naming the file and the key. added_tokens_decoder is
/// not read: the special tokens above are the ones the slow files lack.
/// Immutable: every const member may be called from any thread.
class TokenizerConfig
{
public:
    /// A special token the tokenizer adds, under the key that names it.
    struct NamedToken
    {
        std::string key;     ///< "mask_token"
        AddedToken fallback; ///< the class's default text and options (id unset)
    };

    TokenizerConfig() = default; ///< no file: every key unset
    /// The file at `path`; an empty config when there is no such file. Throws InputError when
    /// it cannot be read, is not a JSON object, or a key HeadLens reads has the wrong kind.
    static TokenizerConfig read(const std::string &path);
    /// read() from the contents; `name` starts every message.
    static TokenizerConfig fromText(const std::string &json, const std::string &name);

    /// The flag `key`, or nullopt when the file does not set it.
    std::optional<bool> flag(const std::string &key) const;
    /// The special token `key`: `fallback` when the file does not name it, its text with
    /// `fallback`'s options when the file gives a string, the file's options when it gives an
    /// object; nullopt when the file sets it to null.
    std::optional<AddedToken> token(const std::string &key, const AddedToken &fallback) const;
    /// The tokens `named` as added tokens (special, in this order, each text once), with the
    /// ids transformers gives them: the vocabulary's id when `model` has the token, else the
    /// next id after the vocabulary (`model.size()`, then on).
    std::vector<AddedToken> specialTokens(const std::vector<NamedToken> &named,
                                          const TokenizerModel &model) const;

    /// The file's name as messages give it ("" without a file).
    const std::string &name() const { return m_name; }
    /// Throws InputError "<file>: <key> <what>".
    [[noreturn]] void fail(const std::string &key, const std::string &what) const;

private:
    std::string m_name;
    std::map<std::string, bool> m_flags;                       ///< the flags the file sets
    std::map<std::string, std::optional<AddedToken>> m_tokens; ///< the tokens it names
    std::set<std::string> m_textOnly; ///< the keys of m_tokens given as a string
};

} // namespace headlens
