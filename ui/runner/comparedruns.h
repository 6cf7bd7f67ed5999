// ComparedRuns: text A's trace and text B's, run by the same job in the worker, for Compare.
#pragma once

#include "attention/trace.h"

#include <QString>

#include <memory>

namespace headlens {

/// B is A's job with B's text (comparisonJob): same settings, model, layer and ablations, so
/// the two traces differ only by their text. For a model both are the traced layer's.
struct ComparedRuns
{
    std::shared_ptr<const Trace> a; ///< what every other view shows
    std::shared_ptr<const Trace> b; ///< b = 1: text B alone
    QString textB;
};

} // namespace headlens
