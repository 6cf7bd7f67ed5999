// WindowOptions: the options `headlens` (the window) accepts beyond the layer's: --screenshot, ...
#pragma once

#include <string>

namespace headlens {

struct CommandLineRequest;

/// --screenshot, --handout, --size, --view, --step, --theme and --page take a value;
/// --landscape and --presentation are flags.
class WindowOptions
{
public:
    /// --handout, --page and --landscape: the handout's, which headlens-cli takes too.
    static bool isHandoutOption(const std::string &option);
    static bool takesValue(const std::string &option);
    /// Sets what `option` (one takesValue() accepts) sets in `request` from `value`. Throws
    /// InputError when the value does not fit.
    static void take(CommandLineRequest &request, const std::string &option,
                     const std::string &value);
    /// Sets the flag `option` names; false when it is not one of the window's flags.
    static bool takeFlag(CommandLineRequest &request, const std::string &option);

private:
    static void takeSize(CommandLineRequest &request, const std::string &value);
};

} // namespace headlens
