// Decoder: the step of a tokenizer pipeline that turns tokens back into the text they stand for.
#pragma once

#include <string>
#include <vector>

namespace headlens {

/// Turns the spellings of tokens back into text, as huggingface/tokenizers decoders/ do
/// (ByteLevel maps symbols back to bytes, Metaspace "▁" to a space, ByteFallback "<0x41>" to
/// "A", ...). Two questions:
/// - decodeChain: the tokens of a whole text, first token first, as decode_chain in Rust (a
///   decoder may join entries, Fuse, or treat the first token apart, Metaspace and WordPiece);
///   joined, the entries are the decoded text. Entries are bytes and may hold part of a UTF-8
///   character (a byte-level token can be half an emoji): decode() repairs after joining,
///   where Rust repairs inside ByteLevel.
/// - decodeToken: one token as a label shows it: what it stands for inside a text where the
///   tokenizer marks word starts (Metaspace's "▁Hi" is " Hi", byte-level "Ġ" a space);
///   WordPiece, which marks continuations instead, keeps its spelling ("the", "##ing"), as
///   decode() of that one token gives it; steps that act on the ends of the whole text (Fuse,
///   Strip) leave it alone.
/// Implementations are immutable and thread-safe.
class Decoder
{
public:
    virtual ~Decoder() = default;
    virtual std::vector<std::string> decodeChain(std::vector<std::string> tokens) const = 0;
    virtual std::string decodeToken(const std::string &token) const = 0;
};

} // namespace headlens
