// ModelCache: Gpt2Model::open and ToyModelFile::load, each at most once per file.
#include "models/modelcache.h"

#include "model/gpt2model.h"
#include "train/toymodelfile.h"
#include "util/inputerror.h"

namespace headlens {

ModelSource ModelCache::resolve(ModelSource source)
{
    if (source.kind == ModelSource::Kind::Gpt2 && !source.gpt2) {
        if (source.path != m_gpt2Path || !m_gpt2) {
            m_gpt2.reset(); // free the old weights before converting the new ones
            m_gpt2 = std::make_shared<const Gpt2Model>(Gpt2Model::open(source.path));
            m_gpt2Path = source.path;
        }
        source.gpt2 = m_gpt2;
    }
    if (source.kind == ModelSource::Kind::Toy && !source.toy) {
        std::error_code error;
        const auto time = std::filesystem::last_write_time(source.path, error);
        if (error)
            throw InputError("Cannot open " + source.path + ": " + error.message() + ".");
        if (source.path != m_toyPath || time != m_toyTime || !m_toy) {
            m_toy = std::make_shared<const TrainedModel>(ToyModelFile::load(source.path));
            m_toyPath = source.path;
            m_toyTime = time;
        }
        source.toy = m_toy;
    }
    return source;
}

} // namespace headlens
