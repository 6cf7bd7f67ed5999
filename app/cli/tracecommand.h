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

    /// --print-shapes: how q splits into heads and context merges back, then one line per step
    /// (shape before -> after, formula, PyTorch) and the trace's total cost. ModelCommand prints
    /// the traced layer's with it.
    static void printShapes(std::ostream &out, const Trace &trace);

private:
    void printSummary(const Trace &trace) const;
    void printStats(const Trace &trace) const;
    void printComparison(const Trace &trace, const AttentionWeights &weights) const;

    std::ostream &m_out;
    std::ostream &m_err;
};

} // namespace headlens
