// TrainCommand: `headlens-cli --train TASK`: trains a toy model, prints its progress, saves it.
#pragma once

#include "commandline.h"

#include <ostream>

namespace headlens {

struct TrainingSettings;

/// Runs the training playground from the command line: the task's default settings overridden
/// by the options given, a line of train and held-out loss/accuracy every --report-every
/// steps, the heads' previous-token and induction scores at the end, and --save FILE.
class TrainCommand
{
public:
    TrainCommand(std::ostream &out, std::ostream &err) : m_out(out), m_err(err) {}

    /// Returns the exit code. Throws InputError for settings a person can fix.
    int run(const CommandLineRequest &request);

    /// The settings the request asks for. Throws InputError naming the option at fault.
    static TrainingSettings settingsFor(const CommandLineRequest &request);

private:
    std::ostream &m_out;
    std::ostream &m_err;
};

} // namespace headlens
