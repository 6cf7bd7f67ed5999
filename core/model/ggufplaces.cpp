// GgufPlaces: std::filesystem walks of each tool's folder; Ollama's manifests read with
// nlohmann-json.
#include "model/ggufplaces.h"

#include "io/wholefile.h"
#include "util/inputerror.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace headlens {

namespace fs = std::filesystem;

namespace {

std::string environment(const char *name)
{
    const char *value = std::getenv(name);
    return value && *value ? value : "";
}

fs::path home()
{
    return fs::path(environment("HOME"));
}

/// The blob of a manifest's model layer: "sha256:<hex>" is stored as blobs/sha256-<hex>.
std::string modelBlob(const fs::path &manifest, const fs::path &blobs)
{
    try {
        const nlohmann::json json = nlohmann::json::parse(
            WholeFile::read(manifest.string(), 1 << 20, "an Ollama manifest"), nullptr, false);
        if (!json.is_object() || !json.contains("layers") || !json["layers"].is_array())
            return {};
        for (const nlohmann::json &layer : json["layers"]) {
            if (!layer.is_object() ||
                layer.value("mediaType", "") != "application/vnd.ollama.image.model")
                continue;
            std::string digest = layer.value("digest", "");
            const size_t colon = digest.find(':');
            if (colon == std::string::npos || digest.find('/') != std::string::npos)
                return {};
            digest[colon] = '-';
            return (blobs / digest).string();
        }
    } catch (const InputError &) {
    }
    return {};
}

/// "llama3.2:3b" for registry.ollama.ai/library/llama3.2/3b, as `ollama list` names it.
std::string ollamaName(const fs::path &relative)
{
    std::vector<std::string> parts;
    for (const fs::path &part : relative)
        parts.push_back(part.string());
    if (parts.size() < 2)
        return relative.string();
    const std::string tag = parts.back();
    parts.pop_back();
    if (parts.size() == 3 && parts[0] == "registry.ollama.ai" && parts[1] == "library")
        parts.erase(parts.begin(), parts.begin() + 2);
    else if (!parts.empty() && parts[0] == "registry.ollama.ai")
        parts.erase(parts.begin());
    std::string name;
    for (const std::string &part : parts)
        name += (name.empty() ? "" : "/") + part;
    return name + ":" + tag;
}

} // namespace

bool GgufPlaces::namesGguf(const std::string &path)
{
    std::string extension = fs::path(path).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return extension == ".gguf";
}

std::string GgufPlaces::ollamaFolder()
{
    const std::string models = environment("OLLAMA_MODELS");
    return models.empty() ? (home() / ".ollama" / "models").string() : models;
}

std::vector<std::string> GgufPlaces::lmStudioFolders()
{
    return {(home() / ".lmstudio" / "models").string(),
            (home() / ".cache" / "lm-studio" / "models").string()};
}

std::string GgufPlaces::llamaCppFolder()
{
    if (const std::string cache = environment("LLAMA_CACHE"); !cache.empty())
        return cache;
    const std::string xdg = environment("XDG_CACHE_HOME");
    return ((xdg.empty() ? home() / ".cache" : fs::path(xdg)) / "llama.cpp").string();
}

std::vector<CatalogEntry> GgufPlaces::listOllama(const std::string &folder)
{
    std::vector<CatalogEntry> entries;
    const fs::path manifests = fs::path(folder) / "manifests", blobs = fs::path(folder) / "blobs";
    std::error_code error;
    for (fs::recursive_directory_iterator it(manifests, error), end; !error && it != end;
         it.increment(error)) {
        if (!it->is_regular_file(error))
            continue;
        const std::string blob = modelBlob(it->path(), blobs);
        if (blob.empty() || !fs::is_regular_file(blob, error))
            continue;
        entries.push_back(ModelCatalog::describeGguf(
            blob, ollamaName(fs::relative(it->path(), manifests, error)), "Ollama"));
    }
    return entries;
}

std::vector<CatalogEntry> GgufPlaces::listFiles(const std::string &folder,
                                                const std::string &source)
{
    std::vector<CatalogEntry> entries;
    std::error_code error;
    for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end;
         it.increment(error))
        if (namesGguf(it->path().string()) && it->is_regular_file(error))
            entries.push_back(ModelCatalog::describeGguf(
                it->path().string(), fs::relative(it->path(), folder, error).string(), source));
    return entries;
}

std::vector<CatalogEntry> GgufPlaces::list()
{
    std::vector<CatalogEntry> entries = listOllama(ollamaFolder());
    for (const std::string &folder : lmStudioFolders())
        for (CatalogEntry &e : listFiles(folder, "LM Studio"))
            entries.push_back(std::move(e));
    for (CatalogEntry &e : listFiles(llamaCppFolder(), "llama.cpp"))
        entries.push_back(std::move(e));
    std::stable_sort(entries.begin(), entries.end(),
                     [](const CatalogEntry &a, const CatalogEntry &b) {
                         return a.source != b.source ? a.source < b.source : a.name < b.name;
                     });
    return entries;
}

} // namespace headlens
