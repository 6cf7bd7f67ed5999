// TransformerOpenedModel: a checkpoint folder (any family of FamilyTable) as an OpenedModel.
#pragma once

#include "model/openedmodel.h"
#include "model/transformermodel.h"

namespace headlens {

/// Owns the TransformerModel; each run keeps its TransformerRun alive and refers to its
/// attention tensor, layer inputs and traced layer instead of copying them.
class TransformerOpenedModel : public OpenedModel
{
public:
    explicit TransformerOpenedModel(TransformerModel model) : m_model(std::move(model)) {}

    std::string family() const override { return m_model.spec().family->displayName; }
    std::string name() const override;
    Tensor valueNorms(const ModelRun &run) const override;
    HeadCircuits circuits(int layer, int head, const std::vector<int> &tokens) const override;
    int layers() const override { return m_model.spec().layers; }
    std::vector<std::string> warnings() const override { return m_model.warnings(); }
    uint64_t mappedBytes() const override { return m_model.bytesOnDisk(); }
    int maxTokens() const override { return m_model.spec().maxTokens(); }
    std::vector<int> encode(const std::string &text) const override;
    bool readsPairs() const override { return m_model.readsPairs(); }
    ModelInput encodePair(const std::string &text, const std::string &pair) const override
    {
        return m_model.encodePair(text, pair);
    }
    using OpenedModel::run;
    std::shared_ptr<ModelRun> run(const ModelInput &input, int layer,
                                  const HeadInterventions &interventions,
                                  const std::function<bool(double)> &progress) const override;
    /// TransformerModel::extend from previous.pass (a whole run without one).
    std::shared_ptr<ModelRun> extend(const ModelRun &previous, const ModelInput &input, int layer,
                                     const HeadInterventions &interventions,
                                     const std::function<bool(double)> &progress) const override;
    /// Traces `layer` from the input `previous` recorded for it; the other layers are not run.
    std::shared_ptr<ModelRun> retrace(const ModelRun &previous, int layer,
                                      const std::function<bool(double)> &progress) const override;
    /// TransformerRanking: one batch of h passes per layer, from that layer's clean stream.
    using OpenedModel::importance;
    HeadImportance importance(const ModelInput &input, const ImportanceAblation &ablation,
                              const std::function<bool(double)> &progress) const override;
    PatchingMap patching(const ModelInput &clean, const ModelInput &corrupt,
                         const PatchingQuestion &question,
                         const std::function<bool(double)> &progress) const override;
    /// TransformerLens on a clean pass.
    LogitLens logitLens(const ModelInput &input, int topK,
                        const std::function<bool(double)> &progress) const override;
    LogitAttribution attribution(const ModelInput &input, int position, int token, int wrong,
                                 int headTokens,
                                 const std::function<bool(double)> &progress) const override;
    std::vector<int> encodePiece(const std::string &text) const override;
    std::string tokenLabel(int id) const override;
    std::string tokenBytes(int id) const override;

private:
    /// What run() and extend() ask of the pass for `input`: a causal model keeps its keys and
    /// values; a text whose matrices would pass TiledAttention::matrixLimit() keeps tiles and
    /// traces no layer.
    TransformerRunOptions optionsFor(const ModelInput &input, int layer,
                                     const HeadInterventions &interventions,
                                     const std::function<bool(double)> &progress) const;
    /// The family-neutral run reading `pass`'s tensors, tracing `layer`.
    std::shared_ptr<ModelRun> modelRunOf(std::shared_ptr<const TransformerRun> pass,
                                         int layer) const;

    TransformerModel m_model;
};

} // namespace headlens
