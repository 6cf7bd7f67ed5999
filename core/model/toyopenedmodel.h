// ToyOpenedModel: a trained toy model (file or Train view) as an OpenedModel.
#pragma once

#include "model/openedmodel.h"
#include "train/trainedmodel.h"

#include <mutex>

namespace headlens {

/// Shares the TrainedModel (the Train view may hold the same one). Its runs compute every
/// layer's attention once, in one forward pass, straight into the run's (L, h, n, n) tensor.
class ToyOpenedModel : public OpenedModel
{
public:
    /// `path`: the file it was read from, empty for a model trained in this session. Counts the
    /// NaN and infinite values of every parameter (a run whose learning rate was too high).
    ToyOpenedModel(std::shared_ptr<const TrainedModel> model, std::string path);

    std::string family() const override { return "toy model"; }
    std::string name() const override;
    int layers() const override { return m_model->settings.model.layers; }
    int maxTokens() const override { return m_model->settings.model.maxLength; }
    /// The text one character at a time, mapped onto the toy vocabulary (ToyTask::encode).
    std::vector<int> encode(const std::string &text) const override;
    /// The toy vocabulary and what was mapped or cut (ToyTask::readingNote).
    std::string readingNote(const std::string &text) const override;
    using OpenedModel::run;
    std::shared_ptr<ModelRun> run(const ModelInput &input, int layer,
                                  const HeadInterventions &interventions,
                                  const std::function<bool(double)> &progress) const override;
    /// ToyRanking with the task's targets when the text is one of the task's examples (its
    /// length with scored positions), every next token otherwise.
    using OpenedModel::importance;
    HeadImportance importance(const ModelInput &input, const ImportanceAblation &ablation,
                              const std::function<bool(double)> &progress) const override;
    PatchingMap patching(const ModelInput &clean, const ModelInput &corrupt,
                         const PatchingQuestion &question,
                         const std::function<bool(double)> &progress) const override;
    std::string tokenLabel(int id) const override { return m_model->task().label(id); }
    /// Random tokens of the task's content vocabulary (not the separator): what it trained on.
    ProbePool probePool() const override;
    /// One sentence per parameter that holds NaN or infinite values (NonFiniteValues).
    std::vector<std::string> warnings() const override { return m_warnings; }

private:
    /// The task accuracy on the held-out set without interventions, evaluated once.
    double unablatedAccuracy() const;
    /// The task's probe written in its labels: typed, it reads back as the probe.
    std::string exampleText() const;

    std::shared_ptr<const TrainedModel> m_model;
    std::string m_path;
    std::vector<std::string> m_warnings;
    mutable std::once_flag m_unablatedOnce;
    mutable double m_unablatedAccuracy = 0.0;
};

} // namespace headlens
