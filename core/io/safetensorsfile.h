// SafetensorsFile: a memory-mapped .safetensors checkpoint, its header checked, tensors as float32.
#pragma once

#include "io/mappedfile.h"
#include "io/storedformat.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace headlens {

/// One tensor described by the header: its bytes are [begin, end) of the data section (the
/// bytes after the 8-byte length and the JSON header).
struct SafetensorsEntry
{
    std::string name;           ///< "h.0.attn.c_attn.weight"
    std::string dtype;          ///< as written: "F32", "F16", "BF16", "I64", ...
    std::vector<int64_t> shape; ///< C order; {} for a scalar
    uint64_t begin = 0;
    uint64_t end = 0;

    int64_t numel() const;
};

/// What a header holds: the tensors sorted by `begin`, and the free-form "__metadata__".
struct SafetensorsHeader
{
    std::vector<SafetensorsEntry> entries;
    std::map<std::string, std::string> metadata;
};

/// The format of https://github.com/huggingface/safetensors: an unsigned little-endian 64-bit
/// header length N, N bytes of JSON {"name": {"dtype", "shape", "data_offsets": [begin, end]},
/// "__metadata__": {string: string}}, then the data. The file is mapped (mmap), not read, so
/// opening a 500 MB checkpoint costs nothing until tensors are converted.
class SafetensorsFile
{
public:
    /// Headers larger than this are refused before any of them is parsed.
    static constexpr uint64_t kMaxHeaderBytes = uint64_t(100) << 20;

    /// The parsed header. `json` is the N header bytes and `dataBytes`
    /// the size of the data section that follows them. Throws InputError starting with
    /// `sourceName` and naming the tensor for: JSON that is not an object of objects, a missing
    /// or mistyped field, a dtype the safetensors format does not define, a negative or
    /// overflowing shape, offsets whose length disagrees with shape x dtype size, that point past
    /// the end, overlap another tensor, or leave a gap (the format forbids holes).
    /// Never reads outside `json`; this is the function fuzzed by tests/fuzz.
    static SafetensorsHeader parseHeader(const std::string &json, uint64_t dataBytes,
                                         const std::string &sourceName);

    /// Maps the file at `path` and parses its header. Throws InputError naming the file when it
    /// cannot be opened, is shorter than 8 bytes, declares a header over kMaxHeaderBytes or
    /// longer than the file (truncated), or parseHeader refuses it.
    static SafetensorsFile open(const std::string &path);

    const std::string &path() const { return m_path; }
    const std::vector<SafetensorsEntry> &entries() const { return m_header.entries; }
    const std::map<std::string, std::string> &metadata() const { return m_header.metadata; }
    /// The entry called `name`, or nullptr.
    const SafetensorsEntry *find(const std::string &name) const;

    /// The values of `entry` converted to float32 (F32, F16 and BF16), axes named "d0", "d1", ...
    /// Throws InputError naming the file and tensor for any other dtype.
    Tensor tensor(const SafetensorsEntry &entry) const;
    /// tensor() written into `out`, which must hold entry.numel() floats.
    void copyTo(const SafetensorsEntry &entry, float *out) const;
    /// Where the values of `entry` start in the mapping (any alignment). Valid while this file
    /// or a copy of it lives.
    const unsigned char *bytes(const SafetensorsEntry &entry) const { return m_data + entry.begin; }
    /// The stored format of `entry`. Throws InputError naming the file and tensor for a dtype
    /// other than F32, F16 and BF16.
    StoredFormat storedFormat(const SafetensorsEntry &entry) const;
    /// Tells the system the mapping's pages of `entry` will not be read again (a tensor copied
    /// at open), so they leave the process's resident memory. Reading them later still works:
    /// they come back from the file.
    void evict(const SafetensorsEntry &entry) const;

private:
    std::string m_path;
    MappedFile m_mapping;
    const unsigned char *m_data = nullptr; ///< start of the data section inside the mapping
    SafetensorsHeader m_header;
};

} // namespace headlens
