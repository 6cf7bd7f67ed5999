// TraceCommand: what `headlens-cli` does with a parsed command line, writing to given streams.
#pragma once

#include "commandline.h"

#include <ostream>

namespace headlens {

class Trace;
struct AttentionWeights;

/// Runs one command line: its TraceJob through a Session (as the window does), then prints and
/// exports. Every output comes from the one Trace. Throws InputError for anything the person
/// can fix. --model goes to ModelCommand.
class TraceCommand
{
public:
    TraceCommand(std::ostream &out, std::ostream &err) : m_out(out), m_err(err) {}

    /// Returns the process exit code (0 success).
    int run(CommandLineRequest request);

private:
    void printSummary(const Trace &trace) const;
    void printShapes(const Trace &trace) const;
    void printStats(const Trace &trace) const;
    void printComparison(const Trace &trace, const AttentionWeights &weights) const;

    std::ostream &m_out;
    std::ostream &m_err;
};

} // namespace headlens
