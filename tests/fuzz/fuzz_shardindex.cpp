// Fuzz target: Checkpoint::open on a folder of model.safetensors.index.json and two shards.
#include "fuzzinput.h"
#include "model/checkpoint.h"
#include "util/inputerror.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const char *const kShards[] = {"model-00001-of-00002.safetensors",
                               "model-00002-of-00002.safetensors"};

// One folder per process, rewritten by every input (libFuzzer runs inputs one at a time).
const fs::path &folder()
{
    static const fs::path path = [] {
        std::string pattern = (fs::temp_directory_path() / "headlens-fuzz-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            std::abort();
        return fs::path(pattern);
    }();
    return path;
}

void put(const fs::path &path, const std::string &bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

} // namespace

/// The input is the index JSON, then each shard after the separator "#shard#" (a missing part
/// is an empty file). Seeds: tests/fuzz/regressions/shardindex. What open returns keeps its
/// promise: every tensor the index places is in the shard it names.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::vector<std::string> parts = headlens::fuzz::splitInput(data, size, 3, "#shard#");
    put(folder() / "model.safetensors.index.json", parts[0]);
    put(folder() / kShards[0], parts[1]);
    put(folder() / kShards[1], parts[2]);
    try {
        const headlens::Checkpoint checkpoint = headlens::Checkpoint::open(folder().string());
        for (const auto &[name, shard] : headlens::Checkpoint::parseIndex(parts[0], "fuzz")) {
            const headlens::CheckpointTensor found = checkpoint.find(name);
            if (!found.present || fs::path(found.path).filename() != shard)
                __builtin_trap();
        }
        for (const auto &[name, tensor] : checkpoint.tensors()) {
            if (tensor.byteCount > fs::file_size(tensor.path))
                __builtin_trap();
            try {
                (void)tensor.view();
            } catch (const headlens::InputError &) { // an integer dtype
            }
        }
    } catch (const headlens::InputError &) {
    }
    return 0;
}
