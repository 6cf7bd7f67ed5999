// CommandLineJob: a parsed headlens-cli command line as a TraceJob for the core's Session.
#pragma once

#include "commandline.h"
#include "session/tracejob.h"

namespace headlens {

/// The command line's side of the agreement with the window: the same TraceJob fields, with
/// only the layer settings the options gave marked as chosen (a weights file fills the rest).
class CommandLineJob
{
public:
    /// Throws InputError for combinations only a command line can get wrong (a mask without
    /// --input, no text at all, --model with --weights, ...), before any file is read.
    static TraceJob from(const CommandLineRequest &request);
    /// --compare-text's or --compare-change's run B: `job` with B's text or one changed setting
    /// and no ranking (comparisonJob; throws InputError when the change does not apply).
    static TraceJob comparisonB(const TraceJob &job, const ComparisonRequest &b);

private:
    static void checkLayerInput(const CommandLineRequest &request);
    /// --ablate (heads from 1 on the command line, from 0 in the job) and the rankings.
    static void addInterventions(const CommandLineRequest &request, TraceJob &job);
    static void checkModelInput(const CommandLineRequest &request);
};

} // namespace headlens
