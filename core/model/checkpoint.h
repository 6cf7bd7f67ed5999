// Checkpoint: a model's weights: a folder's safetensors (one file or the shards an index
// lists) or one GGUF file.
#pragma once

#include "io/gguffile.h"
#include "io/safetensorsfile.h"
#include "model/weightview.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// One tensor where its file's mapping holds it, whatever the file's format.
struct CheckpointTensor
{
    bool present = false; ///< false: no file holds a tensor of that name
    std::string name;
    std::string path;           ///< the file that holds it
    std::string dtype;          ///< as the file names it: "F32", "BF16", "I64", "Q4_K", ...
    std::vector<int64_t> shape; ///< PyTorch's order, (out, in) for a linear layer
    const unsigned char *bytes = nullptr;
    uint64_t byteCount = 0;
    std::optional<StoredFormat> format; ///< nothing: a dtype HeadLens does not read
    bool gguf = false;                  ///< from a GGUF file (for the advice in messages)

    int64_t numel() const;
    /// The tensor as a matrix view in the mapping: (shape[0], product of the rest), a vector
    /// as one row. Throws InputError naming the file, the tensor and the formats HeadLens
    /// reads for any other dtype.
    WeightView view() const;
    /// Its pages leave the resident memory (MappedFile::evict): it was copied at open.
    void evict() const;
};

/// Every file stays mapped while the Checkpoint lives (WeightViews point into them).
/// Move-only, like the files.
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
    /// The GGUF file at `path` (GgufFile::open), its tensors under llama.cpp's names
    /// ("blk.0.attn_q.weight") with their shapes in PyTorch's order.
    static Checkpoint openGguf(const std::string &path);

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

    /// The GGUF file, or nullptr for safetensors.
    const GgufFile *gguf() const { return m_gguf ? &*m_gguf : nullptr; }
    /// The tensor called `name`, or one not present when no file has it.
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
    std::optional<GgufFile> m_gguf;
    std::map<std::string, CheckpointTensor> m_tensors;
};

} // namespace headlens
