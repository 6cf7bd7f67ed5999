// Trainer: one training run that a worker thread steps in chunks; snapshots for the window.
#pragma once

#include "train/adamoptimizer.h"
#include "train/headscores.h"
#include "train/repeatedtokens.h"
#include "train/textbatches.h"
#include "train/toymodel.h"
#include "train/toytask.h"
#include "train/trainedmodel.h"
#include "train/trainingsettings.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace headlens {

/// Training loss and accuracy over the steps of one step() call.
struct TrainingMetrics
{
    int64_t step = 0;      ///< steps done in total after the call
    double loss = 0.0;     ///< mean cross-entropy (nats) over the scored positions of the chunk
    double accuracy = 0.0; ///< fraction of scored positions predicted right (argmax)
    double seconds = 0.0;  ///< training time so far (step() calls only, not evaluations)
};

/// The model on the held-out set: what the curves and the head-score table show.
struct Evaluation
{
    int64_t step = 0;
    double loss = 0.0;
    double accuracy = 0.0;
    /// Every head's scores averaged over the held-out sequences, index layer * heads + head.
    std::vector<HeadScores> heads;
};

/// The current model's attention on one fixed probe sequence (held-out example 0): the
/// heatmaps of the Train view.
struct AttentionSnapshot
{
    int64_t step = 0;
    int layers = 0;
    int heads = 0;
    std::vector<int> tokens;         ///< (n) probe token ids
    std::vector<std::string> labels; ///< (n) their toy labels
    std::vector<int> targets;        ///< (n) what the task wants, -1 where not scored
    std::vector<int> predictions;    ///< (n) the model's argmax at each position
    std::vector<RowMatrix> weights;  ///< (n, n) per head, index layer * heads + head
    std::vector<HeadScores> scores;  ///< the heads' scores on this probe alone
};

/// Trains a ToyModel on a ToyTask or a text with AdamW. Not thread-safe: one thread (the window's
/// worker) owns it and calls step() in chunks of a few steps, then evaluate() / snapshot() and
/// sends the returned values (plain copies) to the window. Pausing is not calling step(); reset()
/// is instant. Every batch is a pure function of (seed, step), each batch is split into a fixed
/// number of parts computed in parallel (parallelFor) and summed in order, so a run reproduces bit
/// for bit on one machine whatever the number of threads.
class Trainer
{
public:
    /// A fresh model for the toy task of `settings`. Throws InputError with
    /// settings.validate()'s message.
    explicit Trainer(const TrainingSettings &settings);
    /// A fresh language model on `text` (its windows are settings.model.maxLength tokens;
    /// settings.task is not used). Throws InputError with settings.validateLanguageModel()'s
    /// message, or when the text's length does not suit the context.
    Trainer(const TrainingSettings &settings, std::shared_ptr<const TextBatches> text);
    /// Continues from a saved model (its settings, weights and step count; Adam's moments
    /// restart at zero). Throws InputError as above.
    explicit Trainer(const TrainedModel &model);

    /// Takes `steps` Adam steps (>= 1) and returns the training metrics over them.
    TrainingMetrics step(int steps);
    /// Loss, accuracy and head scores on the held-out set (settings.heldOutSize sequences),
    /// with `interventions` on heads' outputs when given (an ablated model's accuracy; an item
    /// with a `sequence` acts on that part's sequence index, so leave it at -1).
    Evaluation evaluate(const HeadInterventions *interventions = nullptr) const;
    /// The attention of every head on the probe sequence, or on its first `length` tokens
    /// when 0 < length < its length. A task's probe is its held-out example 0; a text's, the
    /// held-out window whose first kTextProbeTokens tokens repeat the most (a name said
    /// twice: where induction heads show).
    AttentionSnapshot snapshot(int length = 0) const;
    /// How many tokens of a text's probe the window draws (64 would not fit two layers on a
    /// 720-pixel screen in cells a class can see).
    static constexpr int kTextProbeTokens = 32;
    /// The model on `count` repeated runs: segments of the text's held-out part, or random
    /// tokens of the toy task's vocabulary (repeatedtokens.h): the losses on the first and the
    /// second copy and every head's induction and previous-token scores there. The same
    /// sequences at every step.
    InContextScores inContext(int count = 32) const;
    /// Back to step 0 with freshly initialised weights (the same ones: same seed).
    void reset();

    int64_t stepsDone() const { return m_steps; }
    double secondsTrained() const { return m_seconds; }
    const TrainingSettings &settings() const { return m_settings; }
    /// The model as trained so far (to sample text from; copy it with trainedModel()).
    const ToyModel &model() const { return m_model; }
    /// The toy task of settings() (meaningful for a run on a task, not on a text).
    ToyTask task() const;
    /// The text of a language model's run; null for a task.
    const std::shared_ptr<const TextBatches> &text() const { return m_text; }
    /// A copy of the current model, to save or to show in the heads and pipeline views.
    TrainedModel trainedModel() const;

private:
    /// Parts each batch is split into; fixed so results do not depend on the thread count.
    static constexpr int kParts = 2;

    struct Part
    {
        ToyModel::Activations acts;
        ToyParameters gradients;
        double lossSum = 0.0;
        int correct = 0;
    };

    void computeGradients(const ToyBatch &batch);
    float clipGradients();

    /// The run's batches come from `data`; `heldOutSize` was checked by the caller.
    Trainer(std::shared_ptr<const BatchSource> data, const TrainingSettings &settings);

    TrainingSettings m_settings;
    std::shared_ptr<const BatchSource> m_data;
    std::shared_ptr<const TextBatches> m_text; ///< a language model's text; null for a task
    std::vector<int> m_probePool;              ///< the tokens repeated runs are drawn from
    RunKind m_probeRuns = RunKind::RandomTokens;
    int m_probe = 0; ///< the held-out sequence snapshot() draws: a text's most repeating one
    ToyModel m_model;
    AdamOptimizer m_optimizer;
    ToyBatch m_heldOut;
    std::array<Part, kParts> m_parts;
    ToyParameters m_gradients;
    int64_t m_steps = 0;
    double m_seconds = 0.0;
};

} // namespace headlens
