// ModelCatalog: the models already on this computer (the Hugging Face cache, and the GGUF files of
// llama.cpp, Ollama and LM Studio); nothing downloaded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// One snapshot of the cache (or any model folder), described without loading its weights.
struct CatalogEntry
{
    std::string name; ///< "Qwen/Qwen2.5-0.5B" (models--Qwen--Qwen2.5-0.5B), or the folder
    std::string path; ///< the snapshot folder or GGUF file: what ModelOpener::open takes
    std::string source = "Hugging Face"; ///< "Hugging Face", "Ollama", "LM Studio", "llama.cpp"
    std::string architecture; ///< "Qwen2", or config.json's model_type when HeadLens lacks it
    int64_t parameters = 0;   ///< every tensor's element count, from the safetensors headers
    std::string dtype; ///< "BF16", "F32"; mixed: the largest share first, "Q4_K + Q6_K + F32"
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
    /// names when there is one, else each), sorted by name; a snapshot of GGUF files (a
    /// "-GGUF" repository) gives one entry per file, "ORG/NAME/file.gguf". A missing or
    /// unreadable cache gives an empty list. Reads config.json and the headers only.
    static std::vector<CatalogEntry> list(const std::string &cache);
    /// list(cacheFolder()) and then GgufPlaces::list(): every model HeadLens can find.
    static std::vector<CatalogEntry> listEverywhere();
    /// The description of one model folder (what list() gives for each snapshot).
    static CatalogEntry describe(const std::string &folder, const std::string &name);
    /// The description of one GGUF file from its header: the family general.architecture
    /// names, its parameters and types; a problem when HeadLens does not run the family or
    /// decode a type it holds.
    static CatalogEntry describeGguf(const std::string &file, const std::string &name,
                                     const std::string &source);
    /// A table for people, one model per line, for headlens-cli --list-models; `cache` is
    /// where the Hugging Face models were looked for.
    static std::string table(const std::vector<CatalogEntry> &entries, const std::string &cache);
};

} // namespace headlens
