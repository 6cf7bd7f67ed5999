// LayerOptions: widths and counts 1 to 65536; named kinds (scale, positions, tokenizer) by name.
#include "layeroptions.h"

#include "optionvalues.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

namespace headlens {

bool LayerOptions::take(AttentionConfig &c, const std::string &option, const std::string &value)
{
    if (option == "--d-model")
        c.dModel = OptionValues::size(option, value);
    else if (option == "--d-in")
        c.dIn = OptionValues::size(option, value);
    else if (option == "--heads")
        c.heads = OptionValues::size(option, value);
    else if (option == "--d-k") {
        c.dK = OptionValues::size(option, value);
        c.tied = false;
    } else if (option == "--d-v") {
        c.dV = OptionValues::size(option, value);
        c.tied = false;
    } else if (option == "--seed")
        c.seed = static_cast<uint64_t>(OptionValues::integer(option, value));
    else if (option == "--scale")
        takeScale(c, value);
    else if (option == "--dropout") {
        c.dropout = OptionValues::number(option, value);
        c.training = c.dropout > 0.0f; // dropout only acts in training mode, as in PyTorch
    } else if (option == "--positional") {
        const auto kind = positionalFromString(value);
        if (!kind)
            throw InputError("--positional expects sinusoidal, random or none, got '" +
                             quotedText(value) + "'.");
        c.positional = *kind;
    } else if (option == "--tokenizer") {
        const auto kind = tokenizerFromString(value);
        if (!kind)
            throw InputError("--tokenizer expects words or chars, got '" + quotedText(value) +
                             "'.");
        c.tokenizer = *kind;
    } else if (option == "--memory-budget")
        c.memoryBudgetBytes = OptionValues::integer(option, value) << 20;
    else
        return takeVariant(c, option, value);
    return true;
}

bool LayerOptions::takeVariant(AttentionConfig &c, const std::string &option,
                               const std::string &value)
{
    if (option == "--kv-heads")
        c.kvHeads = OptionValues::size(option, value);
    else if (option == "--attention-positions") {
        const auto kind = attentionPositionsFromString(value);
        if (!kind)
            throw InputError("--attention-positions expects none, rope, rope-interleaved or "
                             "alibi, got '" +
                             quotedText(value) + "'.");
        c.attentionPositions = *kind;
    } else if (option == "--rope-theta")
        c.ropeTheta = OptionValues::number(option, value);
    else if (option == "--rope-offset")
        c.ropePositionOffset = OptionValues::index(option, value);
    else if (option == "--window")
        c.window = OptionValues::index(option, value);
    else
        return false;
    return true;
}

void LayerOptions::takeScale(AttentionConfig &config, const std::string &value)
{
    if (auto mode = scaleModeFromString(value); mode && *mode != ScaleMode::Temperature) {
        config.scale = *mode;
        return;
    }
    config.scale = ScaleMode::Temperature;
    config.temperature = OptionValues::number("--scale", value);
    if (!(config.temperature > 0.0f))
        throw InputError("--scale expects sqrt, none or a positive temperature, got '" +
                         quotedText(value) + "'.");
}

} // namespace headlens
