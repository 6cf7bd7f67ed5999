// ModelCatalog: the models already on this computer, in the Hugging Face cache; nothing downloaded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// One snapshot of the cache (or any model folder), described without loading its weights.
struct CatalogEntry
{
    std::string name;         ///< "Qwen/Qwen2.5-0.5B" (models--Qwen--Qwen2.5-0.5B), or the folder
    std::string path;         ///< the snapshot folder: what ModelOpener::open takes
    std::string architecture; ///< "Qwen2", or config.json's model_type when HeadLens lacks it
    int64_t parameters = 0;   ///< every tensor's element count, from the safetensors headers
    std::string dtype;        ///< "BF16", "F32", "F16 + F32" when mixed
    uint64_t bytesOnDisk = 0; ///< the weights files, symlinks followed into blobs/
    /// Empty when HeadLens can open it; else why not, in one sentence (unsupported
    /// architecture, no safetensors, no tokenizer, a broken config.json).
    std::string problem;
};

class ModelCatalog
{
public:
    /// Where Hugging Face keeps its cache: $HF_HUB_CACHE, else $HF_HOME/hub, else
    /// ~/.cache/huggingface/hub (as huggingface_hub's constants.py decides).
    static std::string cacheFolder();
    /// Every snapshot in `cache` (models--ORG--NAME/snapshots/REVISION, the revision refs/main
    /// names when there is one, else each), sorted by name. A missing or unreadable cache gives
    /// an empty list. Reads config.json and the safetensors headers only.
    static std::vector<CatalogEntry> list(const std::string &cache);
    /// The description of one model folder (what list() gives for each snapshot).
    static CatalogEntry describe(const std::string &folder, const std::string &name);
    /// A table for people, one model per line, for headlens-cli --list-models.
    static std::string table(const std::vector<CatalogEntry> &entries, const std::string &cache);
};

} // namespace headlens
