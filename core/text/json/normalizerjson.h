// NormalizerJson: tokenizer.json's "normalizer" read into Normalizer components.
#pragma once

#include "text/json/jsonnode.h"
#include "text/pipeline/normalizer.h"

#include <memory>

namespace headlens {

/// Reads a normalizer as huggingface/tokenizers normalizers/mod.rs deserializes it: Sequence,
/// NFC, NFD, NFKC, NFKD, Lowercase, Strip, StripAccents, Prepend, Replace and BertNormalizer.
/// Any other type (Precompiled, Nmt, ByteLevel, ...) is refused with an InputError naming it.
class NormalizerJson
{
public:
    /// The normalizer `node` describes; null for JSON null.
    static std::shared_ptr<const Normalizer> read(const JsonNode &node);
    /// True when `node` may remove the first characters of a text (Strip on the left,
    /// BertNormalizer, StripAccents, Replace by ""), which moves where
    /// Hugging Face's offsets say the text starts.
    static bool mayDropLeadingText(const JsonNode &node);
};

} // namespace headlens
