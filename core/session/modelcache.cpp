// ModelCache: ModelOpener::open at most once per slot, path and modification time.
#include "session/modelcache.h"

#include "model/modelopener.h"

namespace headlens {

ModelSource ModelCache::resolve(ModelSource source, Slot slot)
{
    if (source.model || source.path.empty())
        return source;
    std::error_code error; // a missing path is reported by ModelOpener::open, by name
    const auto time = std::filesystem::last_write_time(source.path, error);
    Entry &entry = m_slots[int(slot)];
    const Entry &other = m_slots[1 - int(slot)];
    if (!entry.holds(source.path, time)) {
        entry = Entry(); // free the old weights before reading the new ones
        if (other.holds(source.path, time)) {
            entry = other; // one model in both slots: compared with itself, opened once
        } else {
            const uint64_t held = other.model ? other.model->mappedBytes() : 0;
            entry.model = ModelOpener::open(source.path, held);
            entry.path = source.path;
            entry.time = time;
        }
    }
    source.model = entry.model;
    return source;
}

void ModelCache::release(Slot slot)
{
    m_slots[int(slot)] = Entry();
}

} // namespace headlens
