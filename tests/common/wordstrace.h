// wordstrace.h: a trace of the built-in layer over a text of repeated lesson words, for figures.
#pragma once

#include "runner/jobbuilder.h"
#include "session/session.h"

#include <QStringList>

#include <memory>

namespace headlens::test {

/// A trace of `words` tokens and `heads` heads (d_model 48 splits over 1, 2, 4, 8 and 12 heads),
/// through the window's own job building, as the figure and print tests draw it; with the
/// causal mask when `causal`.
inline std::shared_ptr<const Trace> traceOf(int heads, int words, bool causal = false)
{
    static const char *const kWords[] = {"the",  "tired",   "robot", "dropped", "heavy",
                                         "gear", "because", "it",    "broke",   "again"};
    WorkspaceState state;
    state.config.heads = heads;
    state.config.dModel = 48;
    state.config.causal = causal;
    QStringList text;
    for (int i = 0; i < words; ++i)
        text << kWords[i % 10];
    state.text = text.join(' ');
    return Session().run(*JobBuilder::jobFor(state)).trace;
}

} // namespace headlens::test
