// Decoder: the step of a tokenizer pipeline that turns tokens back into the text they stand for.
#pragma once

#include <string>
#include <vector>

namespace headlens {

/// Turns the spellings of a run of tokens back into their text, as huggingface/tokenizers
/// decoders/ decode_chain() does (ByteLevel maps symbols back to bytes, Metaspace "▁" to a
/// space, ...). Unlike the Rust decoders, which join a chain into one string repaired with
/// from_utf8_lossy, this keeps one entry per token and may return part of a UTF-8 character
/// (a byte-level token can hold half an emoji): labels and decode() repair after joining.
/// Implementations are immutable and thread-safe.
class Decoder
{
public:
    virtual ~Decoder() = default;
    /// The bytes each of `tokens` stands for, in order (same length as `tokens`).
    virtual std::vector<std::string> decodeChain(const std::vector<std::string> &tokens) const = 0;
};

} // namespace headlens
