// ToyRanking: head importance and patching maps of a trained toy model, all heads in one batch.
#pragma once

#include "model/headimportance.h"
#include "model/patchingmap.h"
#include "train/trainedmodel.h"

#include <functional>
#include <vector>

namespace headlens {

/// The toy model is small enough to run every head's intervened pass from the embedding: the
/// L*h passes go through ToyModel::forward as one batch of L*h sequences (sequence l*h + head
/// changes that head), with the same interventions as every other model. Holds a reference.
class ToyRanking
{
public:
    explicit ToyRanking(const TrainedModel &model) : m_model(model) {}

    /// The positions the loss scores and their targets (-1 elsewhere): the task's (targetsFor)
    /// when `tokens` is as long as the task's examples and it scores some position, else each
    /// actual next token.
    std::vector<int> targetsFor(const std::vector<int> &tokens) const;
    /// The loss increase (mean cross-entropy at the scored positions) per head alone
    /// zero-ablated. Throws InputError when nothing is scored (one token) or the tokens do not
    /// fit the model; Cancelled when `progress` returns false.
    HeadImportance importance(const std::vector<int> &tokens, const std::vector<int> &targets,
                              const std::function<bool(double)> &progress = {}) const;
    /// PatchingMap at the last position, in the question's direction, with one head's
    /// positions. Throws InputError as TransformerRanking::patching.
    PatchingMap patching(const std::vector<int> &clean, const std::vector<int> &corrupt,
                         const PatchingQuestion &question,
                         const std::function<bool(double)> &progress = {}) const;

private:
    const TrainedModel &m_model;
};

} // namespace headlens
