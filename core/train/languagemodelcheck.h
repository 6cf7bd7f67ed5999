// checkLanguageModelRun: whether a language model of these sizes can train on this text here.
#pragma once

#include "train/trainingsettings.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace headlens {

/// Before a language model trains on a text: returns when the run fits in `availableBytes`
/// (TrainingMemory::check; 0 = unknown, not checked) and the text's `textTokens` tokens are
/// enough for the settings' context (TextBatches::validate). Otherwise throws InputError: the
/// memory first, since its message names the sizes to lower, then the text's problem after
/// "`textName`: ". The window's Language model tab and `--train-lm` both ask it.
void checkLanguageModelRun(const TrainingSettings &settings, size_t textTokens,
                           const std::string &textName, uint64_t availableBytes);

} // namespace headlens
