// TokenizerKind: how the built-in layer's text is cut into tokens (words or characters).
#pragma once

namespace headlens {

/// The text layer's own choice, below the attention settings that name it
/// (AttentionConfig::tokenizer), so that the tokenizer needs nothing of attention.
enum class TokenizerKind
{
    Words,      ///< words, with punctuation split off (default)
    Characters, ///< one token per user-perceived character (grapheme cluster)
};

} // namespace headlens
