// quotedText: outside text (file lines, tokens, keys) made safe to quote in a message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace headlens {

/// `text` as valid UTF-8 that prints on one line, for quoting inside an error message.
/// A byte that does not belong to a valid UTF-8 sequence (stray continuation byte, overlong
/// form, surrogate, beyond U+10FFFF, cut short) becomes `\xNN`; control characters become
/// `\n`, `\r`, `\t` or `\xNN` (C0 and DEL) and `\uNNNN` (C1, line and paragraph separators,
/// bidi overrides, which would break or reorder the message); a backslash becomes `\\` so
/// that every escape reads one way. When the result would be longer than `maxCharacters`
/// code points, it stops before the escape or character that would overflow and ends in
/// "…" (counted in `maxCharacters`).
/// Precondition: maxCharacters >= 1.
std::string quotedText(std::string_view text, std::size_t maxCharacters = 80);

} // namespace headlens
