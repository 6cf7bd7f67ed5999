// ModelCache: the models the runner's thread opened, kept so a new text does not reopen them.
#pragma once

#include "models/modelsource.h"

#include <filesystem>
#include <memory>
#include <string>

namespace headlens {

/// Used only from the runner's worker thread. Keeps the last GPT-2 model and the last toy
/// model; a toy file written again since (the Train view saving) is read again.
class ModelCache
{
public:
    /// `source` with its model pointer set, opening the file when needed. Throws InputError
    /// naming the file and what is wrong.
    ModelSource resolve(ModelSource source);

private:
    std::string m_gpt2Path;
    std::shared_ptr<const Gpt2Model> m_gpt2;
    std::string m_toyPath;
    std::filesystem::file_time_type m_toyTime;
    std::shared_ptr<const TrainedModel> m_toy;
};

} // namespace headlens
