// Checkpoint: model.safetensors or model.safetensors.index.json, read with nlohmann-json.
#include "model/checkpoint.h"

#include "io/wholefile.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

namespace headlens {

namespace fs = std::filesystem;

namespace {

// The distinct shard files an index's weight map names.
std::set<std::string> shardFiles(const std::map<std::string, std::string> &placed)
{
    std::set<std::string> shards;
    for (const auto &entry : placed)
        shards.insert(entry.second);
    return shards;
}

} // namespace

int64_t CheckpointTensor::numel() const
{
    int64_t n = 1;
    for (int64_t axis : shape)
        n *= axis;
    return n;
}

WeightView CheckpointTensor::view() const
{
    if (!format && gguf)
        throw InputError(path + ": tensor '" + quotedText(name) + "' is stored as " + dtype +
                         ", which HeadLens does not decode: it reads F32, F16, BF16, Q8_0, "
                         "Q4_0, Q4_1, Q5_0, Q5_1 and Q2_K to Q6_K. Quantize the model to one of "
                         "those, e.g. llama-quantize model-f16.gguf model-q4_k_m.gguf Q4_K_M.");
    if (!format)
        throw InputError(path + ": tensor '" + quotedText(name) + "' is stored as " + dtype +
                         ", but HeadLens reads weights stored as F32, F16 or BF16. Convert the "
                         "checkpoint, e.g. with model.float() and safetensors.torch.save_file.");
    WeightView v;
    v.bytes = bytes;
    v.format = *format;
    v.rows = shape.size() <= 1 ? 1 : shape[0];
    v.cols = v.rows == 0 ? 0 : numel() / v.rows;
    return v;
}

void CheckpointTensor::evict() const
{
    MappedFile::evict(bytes, byteCount);
}

std::map<std::string, std::string> Checkpoint::parseIndex(const std::string &text,
                                                          const std::string &path)
{
    const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    const auto map = json.is_object() ? json.find("weight_map") : json.end();
    if (map == json.end() || !map->is_object())
        throw InputError(path + " is not a safetensors index: it needs a \"weight_map\" object "
                                "naming the shard of every tensor. Download it again.");
    std::map<std::string, std::string> shards;
    for (const auto &[name, shard] : map->items()) {
        const std::string file = shard.is_string() ? shard.get<std::string>() : std::string();
        if (file.empty() || fs::path(file).filename().string() != file || file == "." ||
            file == "..")
            throw InputError(path + ": tensor '" + quotedText(name) + "' is placed in " +
                             quotedText(shard.dump()) +
                             ", which is not a file name in the model folder. Download the "
                             "index again.");
        shards[name] = file;
    }
    const size_t files = shardFiles(shards).size();
    if (files > kMaxShards)
        throw InputError(path + " names " + std::to_string(files) + " shard files, more than the " +
                         std::to_string(kMaxShards) +
                         " HeadLens opens (the largest published models have a few hundred). "
                         "The index is damaged.");
    return shards;
}

Checkpoint Checkpoint::open(const std::string &dir)
{
    const fs::path folder(dir);
    const fs::path index = folder / "model.safetensors.index.json";
    Checkpoint checkpoint;
    std::error_code error;
    if (!fs::exists(index, error)) {
        const fs::path single = folder / "model.safetensors";
        if (!fs::exists(single, error) && fs::exists(folder / "pytorch_model.bin", error))
            throw InputError("Cannot open " + single.string() +
                             ": the folder holds only pytorch_model.bin, which HeadLens does "
                             "not read (it is a pickle, which can run code). Convert it once "
                             "with PyTorch: model = AutoModel.from_pretrained(folder); "
                             "model.save_pretrained(folder, safe_serialization=True).");
        checkpoint.m_path = single.string();
        checkpoint.addFile(SafetensorsFile::open(single.string()));
        return checkpoint;
    }
    checkpoint.m_path = index.string();
    const std::map<std::string, std::string> placed = parseIndex(
        WholeFile::read(index.string(), kMaxIndexBytes, "a safetensors index"), index.string());
    for (const std::string &shard : shardFiles(placed)) {
        const fs::path path = folder / shard;
        if (!fs::exists(path, error))
            throw InputError(index.string() + " lists the shard " + shard + ", but " +
                             path.string() + " is missing. Download the missing shard.");
        checkpoint.addFile(SafetensorsFile::open(path.string()));
    }
    for (const auto &[name, shard] : placed) {
        const CheckpointTensor found = checkpoint.find(name);
        if (!found.present || fs::path(found.path).filename() != shard)
            throw InputError(index.string() + " places tensor '" + quotedText(name) + "' in " +
                             shard +
                             ", which does not hold it. Download the index and its "
                             "shards again.");
    }
    return checkpoint;
}

void Checkpoint::addFile(SafetensorsFile file)
{
    m_files.push_back(std::move(file));
    // The tensors point into the mapping, which stays where it is when the vector moves.
    const SafetensorsFile &f = m_files.back();
    for (const SafetensorsEntry &entry : f.entries()) {
        CheckpointTensor t;
        t.present = true;
        t.name = entry.name;
        t.path = f.path();
        t.dtype = entry.dtype;
        t.shape = entry.shape;
        t.bytes = f.bytes(entry);
        t.byteCount = entry.end - entry.begin;
        t.format = storedFormatOf(entry.dtype);
        m_tensors.emplace(entry.name, std::move(t));
    }
}

Checkpoint Checkpoint::openGguf(const std::string &path)
{
    Checkpoint checkpoint;
    checkpoint.m_path = path;
    checkpoint.m_gguf = GgufFile::open(path);
    const GgufFile &file = *checkpoint.m_gguf;
    for (const GgufTensorInfo &info : file.tensors()) {
        CheckpointTensor t;
        t.present = true;
        t.name = info.name;
        t.path = path;
        t.dtype = info.typeName();
        t.shape = info.shape();
        t.bytes = file.bytes(info);
        t.byteCount = info.bytes;
        t.format = info.format;
        t.gguf = true;
        checkpoint.m_tensors.emplace(info.name, std::move(t));
    }
    return checkpoint;
}

CheckpointTensor Checkpoint::find(const std::string &name) const
{
    const auto found = m_tensors.find(name);
    return found == m_tensors.end() ? CheckpointTensor{} : found->second;
}

uint64_t Checkpoint::bytesOnDisk() const
{
    uint64_t total = 0;
    std::error_code error;
    for (const SafetensorsFile &f : m_files)
        total += fs::file_size(f.path(), error);
    if (m_gguf)
        total += m_gguf->fileBytes();
    return total;
}

} // namespace headlens
