// applyTrainSizeOptions: the sizes --train and --train-lm both take, read over a model's defaults.
#pragma once

#include "commandline.h"
#include "train/trainingsettings.h"

namespace headlens {

/// The sizes the person gave over `s`'s defaults (a task's or a preset's): --layers, --heads,
/// --d-model, --seq-len (the context), --batch-size and --lr. What each command takes besides
/// (--vocab, --kv-heads, --dropout, ...) stays with it; validating the result too.
/// Header-only: the two commands' one shared reading, small enough not to need a source file.
inline void applyTrainSizeOptions(const CommandLineRequest &request, TrainingSettings &s)
{
    const TrainOptions &t = request.train;
    if (t.layers > 0)
        s.model.layers = t.layers;
    if (request.given.count("--heads"))
        s.model.heads = request.config.heads;
    if (request.given.count("--d-model"))
        s.model.dModel = request.config.dModel;
    if (t.sequenceLength > 0)
        s.model.maxLength = t.sequenceLength;
    if (t.batchSize > 0)
        s.batchSize = t.batchSize;
    if (t.learningRate > 0.0f)
        s.learningRate = t.learningRate;
}

} // namespace headlens
