// DecoderJson: tokenizer.json's "decoder" read into Decoder components.
#pragma once

#include "text/json/jsonnode.h"
#include "text/pipeline/decoder.h"

#include <memory>

namespace headlens {

/// Reads a decoder as huggingface/tokenizers decoders/mod.rs deserializes it: ByteLevel,
/// Metaspace, ByteFallback, Fuse, Strip, Replace, WordPiece and Sequence. Any other type (BPE,
/// CTC) is refused with an InputError naming it.
class DecoderJson
{
public:
    /// The decoder `node` describes; null for JSON null.
    static std::shared_ptr<const Decoder> read(const JsonNode &node);
};

} // namespace headlens
