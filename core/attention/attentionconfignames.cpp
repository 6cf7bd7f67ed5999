// AttentionConfig's enums by the names files, trace.json and the command line use.
#include "attention/attentionconfig.h"

namespace headlens {

std::string toString(ScaleMode mode)
{
    switch (mode) {
    case ScaleMode::InvSqrtDk:
        return "sqrt";
    case ScaleMode::None:
        return "none";
    case ScaleMode::Temperature:
        return "temperature";
    }
    return "sqrt";
}

std::string toString(PositionalEncoding encoding)
{
    switch (encoding) {
    case PositionalEncoding::Sinusoidal:
        return "sinusoidal";
    case PositionalEncoding::Random:
        return "random";
    case PositionalEncoding::None:
        return "none";
    }
    return "sinusoidal";
}

std::string toString(TokenizerKind kind)
{
    return kind == TokenizerKind::Characters ? "chars" : "words";
}

std::string toString(AttentionPositions positions)
{
    switch (positions) {
    case AttentionPositions::None:
        return "none";
    case AttentionPositions::Rope:
        return "rope";
    case AttentionPositions::RopeInterleaved:
        return "rope-interleaved";
    case AttentionPositions::Alibi:
        return "alibi";
    }
    return "none";
}

std::optional<ScaleMode> scaleModeFromString(const std::string &text)
{
    if (text == "sqrt")
        return ScaleMode::InvSqrtDk;
    if (text == "none")
        return ScaleMode::None;
    if (text == "temperature")
        return ScaleMode::Temperature;
    return std::nullopt;
}

std::optional<PositionalEncoding> positionalFromString(const std::string &text)
{
    if (text == "sinusoidal")
        return PositionalEncoding::Sinusoidal;
    if (text == "random")
        return PositionalEncoding::Random;
    if (text == "none")
        return PositionalEncoding::None;
    return std::nullopt;
}

std::optional<AttentionPositions> attentionPositionsFromString(const std::string &text)
{
    for (AttentionPositions p : {AttentionPositions::None, AttentionPositions::Rope,
                                 AttentionPositions::RopeInterleaved, AttentionPositions::Alibi})
        if (text == toString(p))
            return p;
    return std::nullopt;
}

std::optional<TokenizerKind> tokenizerFromString(const std::string &text)
{
    if (text == "words")
        return TokenizerKind::Words;
    if (text == "chars" || text == "characters")
        return TokenizerKind::Characters;
    return std::nullopt;
}

} // namespace headlens
