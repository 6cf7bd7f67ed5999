// SafetensorsFile: header validation with nlohmann-json, mmap of the data, dtype conversion.
#include "io/safetensorsfile.h"

#include "io/mappedfile.h"
#include "io/storedformat.h"
#include "util/bytesize.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>

namespace headlens {

namespace {

const char *const kRemedy = " The checkpoint is damaged or not a safetensors file: download it "
                            "again, or re-save it with safetensors.torch.save_file.";

/// Bytes per element of every dtype the safetensors format defines.
int dtypeSize(const std::string &dtype)
{
    static const std::map<std::string, int> sizes = {
        {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1},
        {"I16", 2},  {"U16", 2}, {"F16", 2}, {"BF16", 2},    {"I32", 4},
        {"U32", 4},  {"F32", 4}, {"F64", 8}, {"I64", 8},     {"U64", 8}};
    const auto found = sizes.find(dtype);
    return found == sizes.end() ? 0 : found->second;
}

[[noreturn]] void fail(const std::string &source, const std::string &what)
{
    throw InputError(source + ": " + what + "." + kRemedy);
}

uint64_t unsignedField(const nlohmann::json &value, const std::string &source,
                       const std::string &where)
{
    if (!value.is_number_unsigned())
        fail(source, where + " must be a whole number >= 0, got " + quotedText(value.dump()));
    return value.get<uint64_t>();
}

SafetensorsEntry parseEntry(const std::string &name, const nlohmann::json &info, uint64_t dataBytes,
                            const std::string &source)
{
    const std::string what = "tensor '" + quotedText(name) + "'";
    if (!info.is_object())
        fail(source, what + " is not described by a JSON object");
    SafetensorsEntry entry;
    entry.name = name;
    const auto dtype = info.find("dtype");
    if (dtype == info.end() || !dtype->is_string())
        fail(source, what + " has no \"dtype\" string");
    entry.dtype = dtype->get<std::string>();
    const int size = dtypeSize(entry.dtype);
    if (size == 0)
        throw InputError(source + ": " + what + " has the unknown dtype '" +
                         quotedText(entry.dtype) +
                         "'. HeadLens reads the dtypes of the safetensors format (F32, F16 and "
                         "BF16 for weights); convert the checkpoint with safetensors in Python.");
    const auto shape = info.find("shape");
    if (shape == info.end() || !shape->is_array())
        fail(source, what + " has no \"shape\" list");
    uint64_t bytes = static_cast<uint64_t>(size);
    for (const nlohmann::json &dim : *shape) {
        const uint64_t n = unsignedField(dim, source, what + "'s shape entry");
        if (n > uint64_t(INT64_MAX) || __builtin_mul_overflow(bytes, n, &bytes))
            fail(source, what + " has a shape too large for any file");
        entry.shape.push_back(static_cast<int64_t>(n));
    }
    const auto offsets = info.find("data_offsets");
    if (offsets == info.end() || !offsets->is_array() || offsets->size() != 2)
        fail(source, what + " has no \"data_offsets\" [begin, end]");
    entry.begin = unsignedField((*offsets)[0], source, what + "'s begin offset");
    entry.end = unsignedField((*offsets)[1], source, what + "'s end offset");
    if (entry.end < entry.begin)
        fail(source, what + " ends (" + std::to_string(entry.end) + ") before it begins (" +
                         std::to_string(entry.begin) + ")");
    if (entry.end > dataBytes)
        fail(source, what + " points past the end of the file: its data ends at byte " +
                         std::to_string(entry.end) + " of a data section of " +
                         std::to_string(dataBytes) + " bytes (is the file truncated?)");
    if (entry.end - entry.begin != bytes)
        fail(source, what + " has " + std::to_string(entry.end - entry.begin) +
                         " bytes of data but its shape and dtype " + entry.dtype + " need " +
                         std::to_string(bytes));
    return entry;
}

/// The format forbids holes and overlaps: sorted by begin, each tensor starts where the previous
/// one ended, and the last one ends at the end of the file.
void checkCoverage(const std::vector<SafetensorsEntry> &entries, uint64_t dataBytes,
                   const std::string &source)
{
    uint64_t expected = 0;
    const SafetensorsEntry *previous = nullptr;
    for (const SafetensorsEntry &entry : entries) {
        if (entry.begin < expected)
            fail(source, "tensor '" + quotedText(entry.name) + "' overlaps tensor '" +
                             quotedText(previous->name) + "' (bytes " +
                             std::to_string(entry.begin) + " to " + std::to_string(expected) + ")");
        if (entry.begin > expected)
            fail(source, "there is a gap of " + std::to_string(entry.begin - expected) +
                             " bytes before tensor '" + quotedText(entry.name) + "' (at byte " +
                             std::to_string(expected) + ")");
        expected = entry.end;
        previous = &entry;
    }
    if (expected != dataBytes)
        fail(source, std::to_string(dataBytes - expected) +
                         " bytes after the last tensor belong to no tensor");
}

} // namespace

int64_t SafetensorsEntry::numel() const
{
    int64_t n = 1;
    for (int64_t size : shape)
        n *= size;
    return n;
}

SafetensorsHeader SafetensorsFile::parseHeader(const std::string &json, uint64_t dataBytes,
                                               const std::string &sourceName)
{
    const nlohmann::json header = nlohmann::json::parse(json, nullptr, false);
    if (header.is_discarded() || !header.is_object())
        fail(sourceName, "the header is not a JSON object");
    SafetensorsHeader result;
    for (const auto &[name, info] : header.items()) {
        if (name == "__metadata__") {
            if (!info.is_object())
                fail(sourceName, "\"__metadata__\" is not a JSON object");
            for (const auto &[key, value] : info.items())
                if (value.is_string())
                    result.metadata[key] = value.get<std::string>();
            continue;
        }
        result.entries.push_back(parseEntry(name, info, dataBytes, sourceName));
    }
    std::sort(result.entries.begin(), result.entries.end(),
              [](const SafetensorsEntry &a, const SafetensorsEntry &b) {
                  return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
              });
    checkCoverage(result.entries, dataBytes, sourceName);
    return result;
}

SafetensorsFile SafetensorsFile::open(const std::string &path)
{
    MappedFile mapping = MappedFile::open(
        path, 8, "the file is shorter than the 8 bytes of a safetensors header length",
        "Check that the model folder holds model.safetensors.");
    const unsigned char *bytes = mapping.data();
    uint64_t headerBytes = 0;
    for (int i = 7; i >= 0; --i) // little-endian, whatever the machine
        headerBytes = (headerBytes << 8) | bytes[i];
    if (headerBytes > kMaxHeaderBytes)
        fail(path, "the header claims " + std::to_string(headerBytes) + " bytes, more than the " +
                       formatBytes(double(kMaxHeaderBytes), 0) + " HeadLens accepts");
    if (headerBytes > mapping.size() - 8)
        fail(path, "the file is truncated: its header needs " + std::to_string(headerBytes) +
                       " bytes but only " + std::to_string(mapping.size() - 8) + " follow");
    SafetensorsFile file;
    file.m_path = path;
    file.m_header = parseHeader(std::string(reinterpret_cast<const char *>(bytes) + 8, headerBytes),
                                mapping.size() - 8 - headerBytes, path);
    file.m_data = bytes + 8 + headerBytes;
    file.m_mapping = std::move(mapping);
    return file;
}

const SafetensorsEntry *SafetensorsFile::find(const std::string &name) const
{
    for (const SafetensorsEntry &entry : m_header.entries)
        if (entry.name == name)
            return &entry;
    return nullptr;
}

Tensor SafetensorsFile::tensor(const SafetensorsEntry &entry) const
{
    std::vector<Axis> axes;
    for (size_t i = 0; i < entry.shape.size(); ++i)
        axes.push_back({"d" + std::to_string(i), entry.shape[i]});
    Tensor result{Shape(std::move(axes))};
    copyTo(entry, result.data());
    return result;
}

void SafetensorsFile::copyTo(const SafetensorsEntry &entry, float *out) const
{
    widenFloats(bytes(entry), storedFormat(entry), entry.numel(), out);
}

StoredFormat SafetensorsFile::storedFormat(const SafetensorsEntry &entry) const
{
    if (const std::optional<StoredFormat> format = storedFormatOf(entry.dtype))
        return *format;
    throw InputError(m_path + ": tensor '" + quotedText(entry.name) + "' is stored as " +
                     entry.dtype +
                     ", but HeadLens reads weights stored as F32, F16 or BF16. Convert the "
                     "checkpoint, e.g. with model.float() and safetensors.torch.save_file.");
}

void SafetensorsFile::evict(const SafetensorsEntry &entry) const
{
    MappedFile::evict(bytes(entry), entry.end - entry.begin);
}

} // namespace headlens
