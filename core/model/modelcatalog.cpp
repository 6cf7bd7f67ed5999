// ModelCatalog: walking the cache's models--*/snapshots folders with std::filesystem.
#include "model/modelcatalog.h"

#include "model/checkpoint.h"
#include "model/modelspec.h"
#include "util/bytesize.h"
#include "util/inputerror.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace headlens {

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path &path)
{
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

/// "models--Qwen--Qwen2.5-0.5B" -> "Qwen/Qwen2.5-0.5B".
std::string repoName(const std::string &folder)
{
    std::string name = folder.substr(std::string("models--").size());
    for (size_t at = name.find("--"); at != std::string::npos; at = name.find("--"))
        name.replace(at, 2, "/");
    return name;
}

/// The snapshots of one cached repository: refs/main's revision if it names one that is there.
std::vector<fs::path> snapshotsOf(const fs::path &repo)
{
    std::error_code error;
    std::string main = readText(repo / "refs" / "main");
    main.erase(std::remove_if(main.begin(), main.end(), ::isspace), main.end());
    if (!main.empty() && fs::is_directory(repo / "snapshots" / main, error))
        return {repo / "snapshots" / main};
    std::vector<fs::path> all;
    for (const auto &entry : fs::directory_iterator(repo / "snapshots", error))
        if (entry.is_directory(error))
            all.push_back(entry.path());
    std::sort(all.begin(), all.end());
    return all;
}

/// Parameters, dtypes and bytes from the safetensors headers.
void describeWeights(const Checkpoint &checkpoint, CatalogEntry &e)
{
    std::map<std::string, int64_t> byType;
    for (const auto &[name, tensor] : checkpoint.tensors()) {
        e.parameters += tensor.numel();
        byType[tensor.dtype] += tensor.numel();
    }
    for (const auto &[type, count] : byType)
        e.dtype += (e.dtype.empty() ? "" : " + ") + type;
    e.bytesOnDisk = checkpoint.bytesOnDisk();
}

} // namespace

std::string ModelCatalog::cacheFolder()
{
    if (const char *hub = std::getenv("HF_HUB_CACHE"); hub && *hub)
        return hub;
    if (const char *home = std::getenv("HF_HOME"); home && *home)
        return (fs::path(home) / "hub").string();
    const char *user = std::getenv("HOME");
    return (fs::path(user ? user : "") / ".cache" / "huggingface" / "hub").string();
}

CatalogEntry ModelCatalog::describe(const std::string &folder, const std::string &name)
{
    CatalogEntry e;
    e.name = name;
    e.path = folder;
    const fs::path dir(folder);
    try {
        // Read once: the model_type is shown even when HeadLens does not run that family.
        const std::string path = (dir / "config.json").string(), text = readText(path);
        const nlohmann::json config = nlohmann::json::parse(text, nullptr, false);
        e.architecture =
            config.is_object() && config.value("model_type", nlohmann::json()).is_string()
                ? config["model_type"].get<std::string>()
                : "?";
        // An empty text is a missing (or empty) file: read() says so by name.
        const ModelSpec spec =
            text.empty() ? ModelSpec::read(path) : ModelSpec::fromJson(text, path);
        e.architecture = spec.family->displayName;
        describeWeights(Checkpoint::open(folder), e);
        std::error_code error;
        if (!fs::exists(dir / "tokenizer.json", error) &&
            !(fs::exists(dir / "vocab.json", error) && fs::exists(dir / "merges.txt", error)))
            e.problem = "It has no tokenizer.json (nor vocab.json and merges.txt).";
    } catch (const InputError &error) {
        e.problem = error.what();
    }
    return e;
}

std::vector<CatalogEntry> ModelCatalog::list(const std::string &cache)
{
    std::vector<CatalogEntry> entries;
    std::error_code error;
    for (const auto &repo : fs::directory_iterator(cache, error)) {
        const std::string folder = repo.path().filename().string();
        if (folder.rfind("models--", 0) != 0 || !repo.is_directory(error))
            continue;
        for (const fs::path &snapshot : snapshotsOf(repo.path()))
            entries.push_back(describe(snapshot.string(), repoName(folder)));
    }
    std::sort(entries.begin(), entries.end(), [](const CatalogEntry &a, const CatalogEntry &b) {
        return a.name != b.name ? a.name < b.name : a.path < b.path;
    });
    return entries;
}

std::string ModelCatalog::table(const std::vector<CatalogEntry> &entries, const std::string &cache)
{
    if (entries.empty())
        return "No models in the Hugging Face cache (" + cache +
               "). HeadLens downloads nothing: put a model folder there, or give its folder "
               "with --model DIR.\n";
    std::string text = "Models in " + cache + ":\n";
    for (const CatalogEntry &e : entries) {
        char line[256];
        std::snprintf(line, sizeof line, "  %-40s %-8s %8.1fM params  %-10s %10s  ", e.name.c_str(),
                      e.architecture.c_str(), double(e.parameters) / 1e6, e.dtype.c_str(),
                      formatBytes(double(e.bytesOnDisk)).c_str());
        text += line + (e.problem.empty() ? e.path : "cannot open: " + e.problem) + "\n";
    }
    return text;
}

} // namespace headlens
