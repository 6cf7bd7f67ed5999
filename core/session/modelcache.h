// ModelCache: the model a session opened last, kept so a new text or layer does not reopen it.
#pragma once

#include "model/modelsource.h"

#include <filesystem>
#include <memory>
#include <string>

namespace headlens {

/// One slot, whatever the family: a model must never need twice its size in memory, so the
/// old one is let go before the next opens. A file written again since it was opened (the Train
/// view saving) is read again. Not thread-safe: one per Session.
class ModelCache
{
public:
    /// `source` with its model set, opened with ModelOpener when needed. Throws InputError
    /// naming the file and what is wrong. A source already holding a model is returned as is.
    ModelSource resolve(ModelSource source);

private:
    std::string m_path;
    std::filesystem::file_time_type m_time;
    std::shared_ptr<const OpenedModel> m_model;
};

} // namespace headlens
