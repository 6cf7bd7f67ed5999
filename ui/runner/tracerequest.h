// TraceRequest: what the worker needs to compute one trace, copied so the UI can move on.
#pragma once

#include "attention/attentionconfig.h"
#include "models/modelsource.h"

#include <string>
#include <vector>

namespace headlens {

/// A self-contained job: settings, the sequences (one per line of the editor) and where the
/// weights come from. Plain C++ so the worker thread shares nothing with the widgets.
struct TraceRequest
{
    AttentionConfig config;
    std::vector<std::string> texts;   ///< b query sequences
    std::vector<std::string> kvTexts; ///< cross-attention key/value sequences; empty = self
    std::string weightsPath;          ///< .npz; empty = seeded initialisation
    /// The layer the views show: the built-in one (config + weightsPath) or a model's layer,
    /// which then reads only the first text.
    ModelSource source;
};

} // namespace headlens
