// GgufPlaces: where llama.cpp, Ollama and LM Studio keep the GGUF files a person already has.
#pragma once

#include "model/modelcatalog.h"

#include <string>
#include <vector>

namespace headlens {

/// The folders HeadLens looks in for GGUF models besides the Hugging Face cache, as each tool
/// decides them (nothing is downloaded, nothing written):
///   Ollama     $OLLAMA_MODELS, else ~/.ollama/models: manifests/<host>/<namespace>/<model>/<tag>
///              (JSON naming the model layer's digest) and blobs/sha256-<hex>;
///   LM Studio  ~/.lmstudio/models/<publisher>/<repository>/*.gguf (and the older
///              ~/.cache/lm-studio/models);
///   llama.cpp  $LLAMA_CACHE, else $XDG_CACHE_HOME/llama.cpp, else ~/.cache/llama.cpp: the
///              files `llama-cli -hf` downloaded.
class GgufPlaces
{
public:
    /// Whether `path` ends in ".gguf", in any case: how the tools name their files (Ollama's
    /// blobs excepted, which are found through its manifests).
    static bool namesGguf(const std::string &path);

    static std::string ollamaFolder();
    static std::vector<std::string> lmStudioFolders();
    static std::string llamaCppFolder();

    /// Every GGUF model in those places, described by ModelCatalog::describeGguf, sorted by
    /// where and name. A missing folder or an unreadable manifest is skipped.
    static std::vector<CatalogEntry> list();
    /// Ollama's models under `folder` (a models folder): "llama3.2:3b" for
    /// registry.ollama.ai/library/llama3.2/3b, "user/model:tag" for another namespace.
    static std::vector<CatalogEntry> listOllama(const std::string &folder);
    /// Every *.gguf under `folder` (LM Studio's and llama.cpp's folders), named by its path
    /// below `folder`, attributed to `source`.
    static std::vector<CatalogEntry> listFiles(const std::string &folder,
                                               const std::string &source);
};

} // namespace headlens
