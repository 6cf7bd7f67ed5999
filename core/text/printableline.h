// printableLine: generated text as one line a person can read in a status bar or a terminal.
#pragma once

#include <string>

namespace headlens {

/// `bytes` (a sample, which may end inside a UTF-8 character) on one line: newlines and tabs
/// become spaces (shown as ⏎ and ⇥ they would hide the text's shape), other control bytes
/// '?', and broken UTF-8 U+FFFD (Tokenizer::toValidUtf8).
std::string printableLine(const std::string &bytes);

} // namespace headlens
