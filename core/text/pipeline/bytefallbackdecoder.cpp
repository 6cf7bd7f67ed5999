// ByteFallbackDecoder: runs of byte tokens gathered, checked as UTF-8, and emitted.
#include "text/pipeline/bytefallbackdecoder.h"

#include "text/tokenizer.h"

#include <cctype>

namespace headlens {

int ByteFallbackDecoder::byteOf(const std::string &token)
{
    if (token.size() != 6 || token.compare(0, 3, "<0x") != 0 || token[5] != '>' ||
        !std::isxdigit(static_cast<unsigned char>(token[3])) ||
        !std::isxdigit(static_cast<unsigned char>(token[4])))
        return -1;
    return std::stoi(token.substr(3, 2), nullptr, 16);
}

std::vector<std::string> ByteFallbackDecoder::decodeChain(std::vector<std::string> tokens) const
{
    std::vector<std::string> decoded;
    std::string bytes; // the run of byte tokens not yet emitted
    size_t runLength = 0;
    const auto flush = [&] {
        if (runLength == 0)
            return;
        if (Tokenizer::toValidUtf8(bytes) == bytes)
            decoded.push_back(bytes);
        else
            decoded.insert(decoded.end(), runLength, "\xEF\xBF\xBD"); // U+FFFD
        bytes.clear();
        runLength = 0;
    };
    for (std::string &token : tokens) {
        if (const int byte = byteOf(token); byte >= 0) {
            bytes += char(byte);
            ++runLength;
            continue;
        }
        flush();
        decoded.push_back(std::move(token));
    }
    flush();
    return decoded;
}

std::string ByteFallbackDecoder::decodeToken(const std::string &token) const
{
    const int byte = byteOf(token);
    return byte >= 0 && byte < 0x80 ? std::string(1, char(byte)) : token;
}

} // namespace headlens
