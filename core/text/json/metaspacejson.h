// MetaspaceJson: the Metaspace component of tokenizer.json, as pre-tokenizer and as decoder.
#pragma once

#include "text/json/jsonnode.h"
#include "text/pipeline/decoder.h"
#include "text/pipeline/metaspacepretokenizer.h"

#include <memory>

namespace headlens {

/// huggingface/tokenizers pre_tokenizers/metaspace.rs deserializes one struct for both uses:
/// replacement (one character), prepend_scheme ("always" when missing; "first", "never"), the
/// legacy add_prefix_space (false means "never" and refuses another scheme) and split (true
/// when missing).
class MetaspaceJson
{
public:
    static MetaspacePreTokenizer::PrependScheme scheme(const JsonNode &node);
    static std::shared_ptr<const PreTokenizer> preTokenizer(const JsonNode &node);
    static std::shared_ptr<const Decoder> decoder(const JsonNode &node);
};

} // namespace headlens
