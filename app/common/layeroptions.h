// LayerOptions: the built-in layer's settings on the command line (--heads, --kv-heads, ...).
#pragma once

#include "attention/attentionconfig.h"

#include <string>

namespace headlens {

/// Reads the options that set an AttentionConfig; the config checks itself later
/// (AttentionConfig::validate), these only check that each value is of the right kind.
class LayerOptions
{
public:
    /// Sets what `option` sets in `config` from `value`; false when `option` is not a layer
    /// setting. Throws InputError when the value is not of the kind expected.
    static bool take(AttentionConfig &config, const std::string &option, const std::string &value);

private:
    /// Attention's newer variants: K/V heads, positions inside attention, window.
    static bool takeVariant(AttentionConfig &config, const std::string &option,
                            const std::string &value);
    static void takeScale(AttentionConfig &config, const std::string &value);
};

} // namespace headlens
