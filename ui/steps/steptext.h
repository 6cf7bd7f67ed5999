// StepText: the words a step is shown with (its title, its shapes), for the screen and for paper.
#pragma once

#include "attention/trace.h"

#include <QString>

namespace headlens {

/// Reads the trace; the pipeline view and the printed handout say the same thing.
class StepText
{
public:
    /// "q (b=1, n=10, h*d_k=512)": the first of `keys` with its named shape; "text" when the
    /// step reads no tensor (the tokens come from the text).
    static QString shape(const Trace &trace, const std::vector<TraceKey> &keys);
    /// "before  q (b=1, n=10, d_model=512)     →     after  ..."
    static QString shapes(const Trace &trace, const TraceStep &step);
    /// "6 / 14 · Scores Q K^T" for step `index` (0-based).
    static QString title(const Trace &trace, int index);
};

} // namespace headlens
