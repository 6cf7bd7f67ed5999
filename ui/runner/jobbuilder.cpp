// JobBuilder: QString texts split into lines, the model named by path or handed over in memory.
#include "runner/jobbuilder.h"

#include "text/tokenizer.h"

namespace headlens {

std::optional<TraceJob> JobBuilder::jobFor(const WorkspaceState &state, const ModelSource &model)
{
    TraceJob job;
    job.config = state.config;
    job.texts = Tokenizer::splitLines(state.text.toStdString());
    if (job.texts.empty())
        return std::nullopt;
    job.weightsPath = state.weightsPath.toStdString();
    job.model = model;
    if (!model.isModel())
        job.model.path = state.modelPath.toStdString();
    // An encoder reads the second box as sentence B (Session passes kvTexts.front()); the
    // built-in layer reads it only for cross-attention.
    const bool sentenceB = state.kvTextIsSentenceB && job.model.isModel();
    if (state.crossAttention || sentenceB)
        job.kvTexts = Tokenizer::splitLines(state.kvText.toStdString());
    job.model.layer = state.modelLayer;
    job.interventions.items = state.ablations;
    return job;
}

} // namespace headlens
