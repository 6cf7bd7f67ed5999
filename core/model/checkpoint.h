// Checkpoint: a model folder's safetensors weights, one file or the shards an index lists.
#pragma once

#include "io/safetensorsfile.h"
#include "model/weightview.h"

#include <map>
#include <string>
#include <vector>

namespace headlens {

/// One tensor and the file that holds it.
struct CheckpointTensor
{
    const SafetensorsFile *file = nullptr;
    const SafetensorsEntry *entry = nullptr;

    /// The tensor as a matrix view in the mapping: (shape[0], product of the rest), a vector
    /// as one row. Throws InputError naming the file for a dtype other than F32/F16/BF16.
    WeightView view() const;
};

/// Every file stays mapped while the Checkpoint lives (WeightViews point into them).
/// Move-only: the index of tensors points at its own files.
class Checkpoint
{
public:
    /// `dir`/model.safetensors, or when `dir`/model.safetensors.index.json exists the shards its
    /// "weight_map" names (Hugging Face's sharded layout). Throws InputError naming the file:
    /// no weights (saying how to convert a pytorch_model.bin), an index that is not JSON or
    /// names a shard outside the folder or one that is missing, a tensor the index places in a
    /// shard that does not hold it, or a bad safetensors file (SafetensorsFile::open); an index
    /// over kMaxIndexBytes is refused before it is read.
    static Checkpoint open(const std::string &dir);

    /// Largest index file read: real ones are a few hundred KB.
    static constexpr uint64_t kMaxIndexBytes = uint64_t(16) << 20;
    /// Most shard files an index may name.
    static constexpr size_t kMaxShards = 10000;

    Checkpoint() = default; ///< no files: finds nothing
    Checkpoint(Checkpoint &&) = default;
    Checkpoint &operator=(Checkpoint &&) = default;
    Checkpoint(const Checkpoint &) = delete;
    Checkpoint &operator=(const Checkpoint &) = delete;

    /// The "weight_map" of an index file's text: tensor name -> shard file name. Throws
    /// InputError starting with `path` when it is not a JSON object with that map, or a shard
    /// is not a plain file name inside the folder, or it names more than kMaxShards files. Never
    /// reads a file: fuzzed by tests/fuzz.
    static std::map<std::string, std::string> parseIndex(const std::string &json,
                                                         const std::string &path);

    /// The tensor called `name`, or {} when no file has it.
    CheckpointTensor find(const std::string &name) const;
    /// Every tensor of every file, by name.
    const std::map<std::string, CheckpointTensor> &tensors() const { return m_tensors; }
    /// What to name in a message about a missing tensor: the file, or the index.
    const std::string &path() const { return m_path; }
    /// Bytes of every file, for "size on disk".
    uint64_t bytesOnDisk() const;

private:
    void addFile(SafetensorsFile file);

    std::string m_path;
    std::vector<SafetensorsFile> m_files;
    std::map<std::string, CheckpointTensor> m_tensors;
};

} // namespace headlens
