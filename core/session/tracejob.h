// TraceJob: the description of one piece of work: what to trace, from which text and weights.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/headinterventions.h"
#include "model/modelsource.h"
#include "session/chosensettings.h"
#include "session/lensrequest.h"
#include "session/rankingrequest.h"

#include <memory>
#include <string>
#include <vector>

namespace headlens {

/// Plain C++, copied into the worker so the front end can move on; Session::run does it.
/// The built-in layer reads config, the texts (or the vectors of inputPath) and weightsPath;
/// a model (model.isModel()) reads only its own layers and the first text (or tokenIds), and
/// an encoder the first kvText as sentence B of a pair.
struct TraceJob
{
    AttentionConfig config;
    ChosenSettings chosen;            ///< settings a weights file must not change (WeightsPolicy)
    std::vector<std::string> texts;   ///< b query sequences
    std::vector<std::string> kvTexts; ///< cross-attention K/V sequences (encoders: sentence B)
    std::string inputPath;            ///< query vectors (.npy) instead of texts; empty = texts
    std::string kvInputPath;          ///< key/value vectors (.npy), with inputPath
    std::string maskPath;             ///< key-padding mask (.npy), with inputPath
    std::string weightsPath;          ///< .npz state_dict; empty = seeded initialisation
    ModelSource model;                ///< the model whose layer to trace; empty = built-in layer
    std::vector<int> tokenIds;        ///< a model's input as ids instead of texts.front()
    /// Changes to heads' outputs in the run: a model's layers (0-based) or the built-in layer's
    /// (layer 0). Heads 0-based here (the CLI and the window number them from 1).
    HeadInterventions interventions;
    /// The model interventions.meanSource was measured on (a corpus run): Session drops those
    /// means for any other model, so that a changed model never reads another's.
    std::shared_ptr<const OpenedModel> meanSourceModel;
    RankingRequest ranking; ///< a ranking of the heads after the run (models only)
    LensRequest lens;       ///< the logit lens or attribution after the run (models only)
    /// Whether the session keeps this model run for the next job to start from: another
    /// layer of the same text, or a text that starts with the same tokens (typed on). The
    /// session keeps one run; the Compare tab's text B and an ablation's unchanged twin leave
    /// the typed text's run in place.
    bool keepForNext = true;
    /// The model of B in a comparison of two models: the session holds it beside A's
    /// (ModelCache's second slot), so that neither is opened again on the next edit.
    bool secondModel = false;
};

} // namespace headlens
