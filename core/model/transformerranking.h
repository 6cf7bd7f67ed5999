// TransformerRanking: head importance and patching maps of a TransformerModel, one pass per head.
#pragma once

#include "model/headimportance.h"
#include "model/patchingmap.h"
#include "model/transformermodel.h"

#include <functional>
#include <vector>

namespace headlens {

/// Every head of every layer intervened on alone, each ablated (or patched) pass starting at its
/// own layer from the clean run's residual stream there (the layers below are unchanged), the h
/// heads of a layer run together as a batch of h sequences. Progress is reported after every
/// layer of every pass; returning false throws Cancelled. Holds a reference: the model must
/// outlive it.
class TransformerRanking
{
public:
    explicit TransformerRanking(const TransformerModel &model) : m_model(model) {}

    /// The loss increase when each head alone is ablated as `ablation` says (HeadImportance;
    /// its means, when given, must be (L, h, d_v)). The loss:
    /// decoders the mean cross-entropy of each actual next token along the text; encoders the
    /// mean cross-entropy at the mask tokens of the clean model's top filler there. Throws
    /// InputError for a one-token text (nothing to predict), an encoder's text without a mask
    /// or a checkpoint without an MLM head, and as TransformerModel::run.
    HeadImportance importance(const ModelInput &input, const ImportanceAblation &ablation,
                              const std::function<bool(double)> &progress = {}) const;

    /// Each head's z_h from one run patched into the other (PatchingMap, in the question's
    /// direction), the metric read at the last position (encoders: the clean text's first
    /// mask); then the question's head (or the map's strongest) patched at one position at a
    /// time. Throws InputError when the texts' token lengths differ (saying both), when an id is
    /// not in the vocabulary or the head not in the model, or when the two texts' metrics differ
    /// by less than kMinPatchingDifference (PatchingMap::checkDifference: too little to share
    /// out).
    PatchingMap patching(const ModelInput &clean, const ModelInput &corrupt,
                         const PatchingQuestion &question,
                         const std::function<bool(double)> &progress = {}) const;

private:
    /// Which rows of a sequence the loss reads, and the token expected at each.
    struct Targets
    {
        std::vector<int64_t> rows;
        std::vector<int> tokens;
        std::string loss; ///< what the loss is, for HeadImportance::loss
    };
    Targets targetsOf(const ModelInput &input, const TransformerRun &clean) const;

    /// The final stream of `count` copies of the stream entering `layer` (from a run's
    /// residualStream), each with `interventions`, ticking `tick` after each layer.
    RowMatrix passFrom(int layer, const Tensor &stream, int64_t count,
                       const HeadInterventions &interventions,
                       const std::function<bool()> &tick) const;
    /// The mean cross-entropy of each of `count` sequences of `final` at the targets' rows.
    std::vector<double> losses(const RowMatrix &final, int64_t count, const Targets &t) const;
    /// logit(answer) - logit(wrong) at row `position` of each of `count` sequences.
    std::vector<double> metrics(const RowMatrix &final, int64_t count, int64_t position, int answer,
                                int wrong) const;

    /// The first `rows` rows of a logits buffer kept for the ranking's passes (a fresh 100 MB
    /// block each pass spent a fifth of head importance's time in page faults and zeroing).
    Eigen::Ref<RowMatrix> logitRows(int64_t rows) const;

    const TransformerModel &m_model;
    mutable RowMatrix m_logits; ///< one ranking runs on one thread: its passes take turns
};

} // namespace headlens
