// GgufFile: a memory-mapped GGUF file (llama.cpp's format): its metadata, tensor infos and data.
#pragma once

#include "io/mappedfile.h"
#include "io/storedformat.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// A metadata value's type, as gguf.h numbers them.
enum class GgufType : uint32_t
{
    UInt8 = 0,
    Int8 = 1,
    UInt16 = 2,
    Int16 = 3,
    UInt32 = 4,
    Int32 = 5,
    Float32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    UInt64 = 10,
    Int64 = 11,
    Float64 = 12,
};

/// One metadata value: a number (every integer and float type, and Bool as 0 or 1), a string,
/// or an array of either (arrays of arrays are refused: no model file uses them).
struct GgufValue
{
    GgufType type = GgufType::UInt8;
    GgufType elementType = GgufType::UInt8; ///< an Array's elements
    double number = 0;                      ///< integers beyond 2^53 are rounded
    std::string text;
    std::vector<std::string> texts; ///< an Array of String
    std::vector<double> numbers;    ///< an Array of numbers or Bool

    bool isNumber() const;
    /// A number of an integer type (not Float32, Float64 or Bool).
    bool isInteger() const;
    bool isArrayOf(GgufType element) const;
};

/// One tensor info. GGUF lists a tensor's axes innermost first (ggml's ne[0] is the contiguous
/// one), the reverse of PyTorch's shape: a (out, in) nn.Linear weight has ne = {in, out}.
struct GgufTensorInfo
{
    std::string name;
    std::vector<int64_t> ne;            ///< 1 to 4 axes, innermost first
    uint32_t type = 0;                  ///< ggml's type id (GgmlType)
    uint64_t begin = 0;                 ///< the tensor's first byte, from the start of the file
    uint64_t bytes = 0;                 ///< its length
    std::optional<StoredFormat> format; ///< nothing for a type HeadLens does not decode

    /// PyTorch's order: ne reversed.
    std::vector<int64_t> shape() const;
    int64_t numel() const;
    /// "Q4_K", "IQ2_XXS", ...
    std::string typeName() const;
};

/// What parse() finds in a file.
struct GgufContents
{
    uint32_t version = 0;
    uint64_t alignment = 32;
    std::map<std::string, GgufValue> metadata;
    std::vector<GgufTensorInfo> tensors; ///< in the file's order
};

/// https://github.com/ggml-org/ggml/blob/master/docs/gguf.md: "GGUF", a uint32 version (2 or
/// 3; 1 used 32-bit counts and is refused), uint64 counts of tensors and key-values, the
/// key-values (a string key, a uint32 type, the value), the tensor infos (name, axis count,
/// axes, ggml type, offset), then the data from the next multiple of general.alignment
/// (default 32). Little-endian; a big-endian file is refused by name.
class GgufFile
{
public:
    /// Most key-values and tensors a header may declare; more is a damaged count.
    static constexpr uint64_t kMaxEntries = uint64_t(1) << 20;
    /// Longest string a header may hold (llama.cpp's chat templates are a few KB).
    static constexpr uint64_t kMaxStringBytes = uint64_t(64) << 20;

    /// The contents of the `size` bytes at `data`, a whole file. Throws InputError starting
    /// with `sourceName` and naming the field for: a wrong magic, version 1, 4 or later, or a
    /// big-endian file; a count, string or array longer than what follows; an unknown value
    /// type, a nested array, a repeated key; a general.alignment that is not a power of two; a
    /// tensor with no axes or more than four, a negative axis, an element count that
    /// overflows, a type ggml does not define, rows that are not whole blocks, an offset that
    /// is not aligned, data past the end of the file or overlapping another tensor's, a
    /// repeated name. Never reads outside [data, data + size): the function fuzzed by
    /// tests/fuzz.
    static GgufContents parse(const unsigned char *data, uint64_t size,
                              const std::string &sourceName);

    /// Maps the file at `path` and parses it. Throws InputError naming the file when it cannot
    /// be opened or parse() refuses it.
    static GgufFile open(const std::string &path);
    /// Whether the file at `path` starts with GGUF's magic (reads 4 bytes).
    static bool hasMagic(const std::string &path);

    GgufFile() = default;
    const std::string &path() const { return m_path; }
    uint32_t version() const { return m_contents.version; }
    const std::map<std::string, GgufValue> &metadata() const { return m_contents.metadata; }
    const std::vector<GgufTensorInfo> &tensors() const { return m_contents.tensors; }
    /// The value of `key`, or nullptr.
    const GgufValue *find(const std::string &key) const;
    /// The string at `key`, or nothing when it is absent or not a string.
    std::optional<std::string> text(const std::string &key) const;
    /// The number at `key`, or nothing when it is absent or not a number.
    std::optional<double> number(const std::string &key) const;
    /// The tensor called `name`, or nullptr.
    const GgufTensorInfo *tensor(const std::string &name) const;
    /// Where a tensor's bytes start in the mapping.
    const unsigned char *bytes(const GgufTensorInfo &tensor) const
    {
        return m_mapping.data() + tensor.begin;
    }
    uint64_t fileBytes() const { return m_mapping.size(); }

private:
    std::string m_path;
    MappedFile m_mapping;
    GgufContents m_contents;
};

} // namespace headlens
