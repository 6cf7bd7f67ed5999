// TrainLanguageModelCommand: `headlens-cli --train-lm`: a language model trained on a text,
// its progress and its heads printed as they form.
#pragma once

#include "commandline.h"

#include <ostream>

namespace headlens {

/// Trains a preset's GPT-2-style model on --train-text (one byte per token) and prints, every
/// --report-every steps: the training and held-out loss, the loss on runs of held-out text
/// repeated (r r) against the same runs unrepeated (Olsson et al.'s in-context copying test),
/// tokens per second and a sample of generated text; at the end every head's previous-token
/// and induction scores, and the step at which copying appeared.
class TrainLanguageModelCommand
{
public:
    explicit TrainLanguageModelCommand(std::ostream &out) : m_out(out) {}

    /// Returns the exit code. Throws InputError for a text or settings a person can fix.
    int run(const CommandLineRequest &request);

private:
    std::ostream &m_out;
};

} // namespace headlens
