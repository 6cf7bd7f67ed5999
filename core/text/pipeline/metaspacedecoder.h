// MetaspaceDecoder: SentencePiece's "▁" back to spaces, without the one put before the text.
#pragma once

#include "text/pipeline/decoder.h"
#include "text/pipeline/metaspacepretokenizer.h"

#include <string>

namespace headlens {

/// huggingface/tokenizers pre_tokenizers/metaspace.rs, Metaspace as a Decoder: every
/// `replacement` becomes a space, except in the first token of a text, where it is dropped
/// unless the scheme is Never (it stands for the space the pre-tokenizer put before the text).
class MetaspaceDecoder : public Decoder
{
public:
    MetaspaceDecoder(std::string replacement, MetaspacePreTokenizer::PrependScheme scheme)
        : m_replacement(std::move(replacement)), m_scheme(scheme)
    {}
    std::vector<std::string> decodeChain(std::vector<std::string> tokens) const override;
    std::string decodeToken(const std::string &token) const override;

private:
    std::string replaced(const std::string &token, const std::string &by) const;

    std::string m_replacement;
    MetaspacePreTokenizer::PrependScheme m_scheme;
};

} // namespace headlens
