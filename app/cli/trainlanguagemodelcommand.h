// TrainLanguageModelCommand: `headlens-cli --train-lm`: a language model trained on a text,
// its progress and its heads printed as they form.
#pragma once

#include "commandline.h"

#include <cstddef>
#include <ostream>
#include <string>

namespace headlens {

class Trainer;
class TrainingTokens;
struct LanguageModelPreset;
struct StoryText;
struct TrainingSettings;
struct ToyModelConfig;

/// Trains a preset's GPT-2-style model (its sizes changed by --layers, --heads, --d-model and
/// --seq-len: a custom size) on --train-text, or on generated stories without it, one byte per
/// token or with a BPE learned from the text (--bpe N), and prints, every --report-every steps: the
/// training and held-out loss, the loss on runs of held-out text repeated (r r) against the same
/// runs unrepeated (Olsson et al.'s in-context copying test), tokens per second and a sample of
/// generated text; at the end every head's previous-token and induction scores, on the stories its
/// scores against their relations (antecedent, subject, bracket), and the step at which copying
/// appeared.
class TrainLanguageModelCommand
{
public:
    explicit TrainLanguageModelCommand(std::ostream &out) : m_out(out) {}

    /// Returns the exit code. Throws InputError for a text or settings a person can fix.
    int run(const CommandLineRequest &request);

    /// Bytes of generated stories trained on without --train-text: 2 MB, two passes of a
    /// 2,000-step Tiny run.
    static constexpr size_t kStoryBytes = size_t(2) << 20;
    /// Held-out windows the heads are scored on against the stories' relations.
    static constexpr int kProbeWindows = 256;

    /// --print-stories BYTES [--seed S]: the stories --train-lm trains on without a text of
    /// the person's own (from the same --seed), to read them or train elsewhere.
    int printStories(const CommandLineRequest &request);

    /// The preset's settings for `vocabulary` tokens with the command line's sizes, batch,
    /// learning rate and --attention-only. Throws InputError when a size is out of range.
    static TrainingSettings settingsFor(const CommandLineRequest &request,
                                        const LanguageModelPreset &preset, int vocabulary);

private:
    /// "tiny: 2 layers, ..." for a preset's sizes, "custom: ..." for others.
    static std::string sizesOf(const ToyModelConfig &model, const LanguageModelPreset &preset);
    void printRelations(const Trainer &trainer, const TrainingTokens &tokens,
                        const StoryText &stories, size_t heldOutFrom);

    std::ostream &m_out;
};

} // namespace headlens
