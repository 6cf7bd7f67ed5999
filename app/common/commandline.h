// CommandLine: the options `headlens-cli` and `headlens` share, parsed without Qt.
#pragma once

#include "commandlinerequest.h"

#include <string>
#include <vector>

namespace headlens {

/// Parses argv into a request. Throws InputError with a message naming the option and what it
/// expects ("--heads expects a whole number, got 'eight'").
class CommandLine
{
public:
    /// `allowWindowOptions` accepts --screenshot, --size, --view, --step, --theme,
    /// --presentation and a workspace file (the window's extras); --handout, --page and
    /// --landscape are accepted either way.
    static CommandLineRequest parse(const std::vector<std::string> &arguments,
                                    bool allowWindowOptions);
    /// The option list for --help.
    static std::string helpText(const std::string &program, bool windowOptions);
};

} // namespace headlens
