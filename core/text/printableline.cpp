// printableLine: control bytes replaced, then the UTF-8 repaired.
#include "text/printableline.h"

#include "text/tokenizer.h"

namespace headlens {

std::string printableLine(const std::string &bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (char c : bytes) {
        const unsigned char b = static_cast<unsigned char>(c);
        out += b == '\n' || b == '\t' ? ' ' : (b < 0x20 || b == 0x7f) ? '?' : c;
    }
    return Tokenizer::toValidUtf8(out);
}

} // namespace headlens
