// ByteLevelAlphabet: GPT-2's bytes_to_unicode(), one visible character for each of the 256 bytes.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace headlens {

/// The byte <-> character table of byte-level BPE, openai/gpt-2 src/encoder.py bytes_to_unicode()
/// and huggingface/tokenizers pre_tokenizers/byte_level.rs bytes_char(): the printable bytes
/// '!'..'~', 0xA1..0xAC and 0xAE..0xFF stand for themselves (as code points), the other 68 for
/// U+0100 onwards in byte order, so a space is "Ġ" (U+0120) and a newline "Ċ" (U+010A). Every
/// symbol is a visible, non-space character below U+0144, so a vocabulary of them is plain JSON.
/// Immutable: every const member may be called from any thread.
class ByteLevelAlphabet
{
public:
    ByteLevelAlphabet();

    /// The UTF-8 of byte `byte`'s symbol.
    const std::string &symbol(unsigned char byte) const { return m_symbols[byte]; }
    /// `bytes` with every byte replaced by its symbol (the form vocab.json spells tokens in).
    std::string toSymbols(const std::string &bytes) const;
    /// Writes the bytes `symbols` stands for into `bytes` and returns true, or returns false when
    /// a character of `symbols` is not one of the 256 (then `bytes` is unspecified).
    bool toBytes(const std::string &symbols, std::string &bytes) const;

private:
    static constexpr uint32_t kCodePointLimit = 0x144; ///< every symbol is below U+0144
    std::array<std::string, 256> m_symbols;            ///< byte -> UTF-8 of its symbol
    std::array<int, kCodePointLimit> m_byteOf;         ///< code point -> byte, or -1
};

} // namespace headlens
