// ByteFallbackDecoder: "<0xNN>" tokens back to the bytes they stand for.
#pragma once

#include "text/pipeline/decoder.h"

namespace headlens {

/// huggingface/tokenizers decoders/byte_fallback.rs: a run of "<0xNN>" tokens becomes the text
/// its bytes spell when they are valid UTF-8, else one U+FFFD per token; other tokens pass.
/// For a label (decodeToken), a byte token that is a whole character (below 0x80) is that
/// character and one that is part of a character keeps its name ("<0xE4>").
class ByteFallbackDecoder : public Decoder
{
public:
    std::vector<std::string> decodeChain(std::vector<std::string> tokens) const override;
    std::string decodeToken(const std::string &token) const override;

    /// The byte `token` names when it is "<0xNN>" (six characters, hex digits), or -1.
    static int byteOf(const std::string &token);
};

} // namespace headlens
