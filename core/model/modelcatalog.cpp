// ModelCatalog: walking the cache's models--*/snapshots folders with std::filesystem.
#include "model/modelcatalog.h"

#include "io/gguffile.h"
#include "model/checkpoint.h"
#include "model/ggufconfig.h"
#include "model/ggufplaces.h"
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

/// Parameters, dtypes (the largest share first) and bytes from the headers.
void describeWeights(const Checkpoint &checkpoint, CatalogEntry &e)
{
    std::map<std::string, int64_t> byType;
    for (const auto &[name, tensor] : checkpoint.tensors()) {
        e.parameters += tensor.numel();
        byType[tensor.dtype] += tensor.numel();
    }
    std::vector<std::pair<std::string, int64_t>> types(byType.begin(), byType.end());
    std::stable_sort(types.begin(), types.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    for (const auto &[type, count] : types)
        e.dtype += (e.dtype.empty() ? "" : " + ") + type;
    e.bytesOnDisk = checkpoint.bytesOnDisk();
}

/// The GGUF files of a snapshot, sorted: a "-GGUF" repository holds one per quantization.
std::vector<fs::path> ggufFilesOf(const fs::path &snapshot)
{
    std::vector<fs::path> files;
    std::error_code error;
    for (const auto &entry : fs::directory_iterator(snapshot, error))
        if (GgufPlaces::namesGguf(entry.path().string()) && entry.is_regular_file(error))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
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

CatalogEntry ModelCatalog::describeGguf(const std::string &file, const std::string &name,
                                        const std::string &source)
{
    CatalogEntry e;
    e.name = name;
    e.path = file;
    e.source = source;
    try {
        const Checkpoint checkpoint = Checkpoint::openGguf(file);
        const GgufFile &gguf = *checkpoint.gguf();
        e.architecture = gguf.text("general.architecture").value_or("?");
        describeWeights(checkpoint, e);
        e.architecture = GgufConfig::family(gguf).displayName;
        (void)GgufConfig::spec(gguf);
        for (const auto &[tensor, found] : checkpoint.tensors())
            if (!found.format) {
                e.problem = "Its tensor '" + tensor + "' is stored as " + found.dtype +
                            ", which HeadLens does not decode.";
                break;
            }
    } catch (const InputError &error) {
        e.problem = error.what();
    }
    return e;
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
        for (const fs::path &snapshot : snapshotsOf(repo.path())) {
            const std::vector<fs::path> ggufs = ggufFilesOf(snapshot);
            std::error_code missing;
            if (ggufs.empty() || fs::exists(snapshot / "config.json", missing))
                entries.push_back(describe(snapshot.string(), repoName(folder)));
            for (const fs::path &file : ggufs)
                entries.push_back(describeGguf(file.string(),
                                               repoName(folder) + "/" + file.filename().string(),
                                               "Hugging Face"));
        }
    }
    std::sort(entries.begin(), entries.end(), [](const CatalogEntry &a, const CatalogEntry &b) {
        return a.name != b.name ? a.name < b.name : a.path < b.path;
    });
    return entries;
}

std::vector<CatalogEntry> ModelCatalog::listEverywhere()
{
    std::vector<CatalogEntry> entries = list(cacheFolder());
    for (CatalogEntry &e : GgufPlaces::list())
        entries.push_back(std::move(e));
    return entries;
}

std::string ModelCatalog::table(const std::vector<CatalogEntry> &entries, const std::string &cache)
{
    if (entries.empty())
        return "No models in the Hugging Face cache (" + cache +
               "), nor GGUF files of Ollama, LM Studio or llama.cpp. HeadLens downloads "
               "nothing: put a model folder there, or give its folder with --model DIR (a GGUF "
               "file with --model FILE.gguf).\n";
    std::string text, source;
    for (const CatalogEntry &e : entries) {
        if (e.source != source) {
            source = e.source;
            text += source == "Hugging Face" ? "Models in " + cache + ":\n"
                                             : source + "'s GGUF models:\n";
        }
        char line[256];
        std::snprintf(line, sizeof line, "  %-40s %-8s %8.1fM params  %-10s %10s  ", e.name.c_str(),
                      e.architecture.c_str(), double(e.parameters) / 1e6, e.dtype.c_str(),
                      formatBytes(double(e.bytesOnDisk)).c_str());
        text += line + (e.problem.empty() ? e.path : "cannot open: " + e.problem) + "\n";
    }
    return text;
}

} // namespace headlens
