// ModelCache: ModelOpener::open at most once per path and modification time.
#include "session/modelcache.h"

#include "model/modelopener.h"

namespace headlens {

ModelSource ModelCache::resolve(ModelSource source)
{
    if (source.model || source.path.empty())
        return source;
    std::error_code error; // a missing path is reported by ModelOpener::open, by name
    const auto time = std::filesystem::last_write_time(source.path, error);
    if (source.path != m_path || time != m_time || !m_model) {
        m_model.reset(); // free the old weights before reading the new ones
        m_path.clear();
        m_model = ModelOpener::open(source.path);
        m_path = source.path;
        m_time = time;
    }
    source.model = m_model;
    return source;
}

} // namespace headlens
