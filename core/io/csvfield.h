// csvField: one text as a CSV field, for the tables HeadLens writes.
#pragma once

#include <string>

namespace headlens {

/// `text` quoted with its inner quotes doubled (RFC 4180), so a token holding a comma, a quote
/// or a line break stays one field.
inline std::string csvField(const std::string &text)
{
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace headlens
