// TrainingLog: a language model's run as it went, row by row, and its JSON for the saved folder.
#pragma once

#include "train/trainingsettings.h"

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// What one report of a run measured.
struct TrainingLogRow
{
    int64_t step = 0;
    double seconds = 0.0;                ///< training time so far
    double trainLoss = 0.0;              ///< mean over the steps since the previous row
    double heldOutLoss = 0.0;            ///< on the held-out tenth of the text
    double unrepeatedLoss = 0.0;         ///< second halves after another run (InContextScores)
    double repeatedLoss = 0.0;           ///< the same halves after their own first copy
    double strongestInduction = 0.0;     ///< the largest head induction score on the repeats
    double strongestPreviousToken = 0.0; ///< the largest previous-token score there
};

/// The rows of a run, and the step at which in-context copying appeared: the first row whose
/// loss on repeated halves is below kCopyingRatio of the loss on the same halves unrepeated.
/// Olsson et al. 2022 see the in-context learning score drop in a step as induction heads
/// form; a byte-level Tiny model on dense stories drops from 0.8 to 0.6 of it between two
/// reports 250 steps apart and stays there, while before it the ratio hovers near 1.
/// Written beside the model as headlens_training.json.
class TrainingLog
{
public:
    static constexpr double kCopyingRatio = 0.75;

    explicit TrainingLog(const TrainingSettings &settings) : m_settings(settings) {}

    /// The settings of the run logged.
    const TrainingSettings &settings() const { return m_settings; }

    /// Appends a row (steps increasing).
    void add(const TrainingLogRow &row);
    const std::vector<TrainingLogRow> &rows() const { return m_rows; }
    /// The step of the first row where copying appeared, or -1.
    int64_t copyingStep() const { return m_copyingStep; }
    /// Token ids and the saved model's logits at their last position, written as "check" so
    /// that a reference implementation can run the saved folder and compare
    /// (scripts/check_trained_gpt2.py).
    void setCheck(std::vector<int> ids, std::vector<float> lastLogits);

    /// {"format": "headlens-training", "version": 1, "settings": {...}, "copying_step",
    /// "text": `textName`, "tokenizer": `tokenizer`, "rows": [{...}, ...]}, indented.
    std::string toJson(const std::string &textName, const std::string &tokenizer) const;

private:
    TrainingSettings m_settings;
    std::vector<TrainingLogRow> m_rows;
    int64_t m_copyingStep = -1;
    std::vector<int> m_checkIds;
    std::vector<float> m_checkLogits;
};

} // namespace headlens
