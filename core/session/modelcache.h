// ModelCache: the models a session opened last, kept so a new text or layer does not reopen them.
#pragma once

#include "model/modelsource.h"

#include <filesystem>
#include <memory>
#include <string>

namespace headlens {

/// Two slots, whatever the family: A, the model every view shows, and B, the second model of a
/// comparison (TraceJob::secondModel). A slot's old model is let go before its next opens, so a
/// model never needs twice its size; the other slot's weights are counted as held when a model
/// opens (MemoryNeeds::check), so A and B must fit together. A file written again since it was
/// opened (the Train view saving) is read again. Not thread-safe: one per Session.
class ModelCache
{
public:
    enum class Slot
    {
        A = 0, ///< indexes m_slots
        B = 1
    };

    /// `source` with its model set, opened with ModelOpener into `slot` when needed (B the
    /// same file as A shares A's). Throws InputError naming the file and what is wrong. A
    /// source already holding a model is returned as is.
    ModelSource resolve(ModelSource source, Slot slot = Slot::A);
    /// Lets slot `slot`'s model go (B when no comparison of models is asked for any more).
    void release(Slot slot);

private:
    struct Entry
    {
        std::string path;
        std::filesystem::file_time_type time;
        std::shared_ptr<const OpenedModel> model;

        bool holds(const std::string &p, std::filesystem::file_time_type t) const
        {
            return model && path == p && time == t;
        }
    };
    Entry m_slots[2];
};

} // namespace headlens
