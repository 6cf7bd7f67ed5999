// GgufFile: a bounds-checked reader over the mapping; every count is checked against the bytes
// that follow it before anything is allocated for it.
#include "io/gguffile.h"

#include "io/ggmlblocks.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>

namespace headlens {

namespace {

const char *const kGgufRemedy = " The file is damaged or not a GGUF file: download it again, or "
                                "convert the model again with llama.cpp's convert_hf_to_gguf.py.";

[[noreturn]] void refuse(const std::string &source, const std::string &what)
{
    throw InputError(source + ": " + what + "." + kGgufRemedy);
}

/// Bytes a value of a fixed-size type takes; 0 for String and Array.
uint64_t fixedBytes(GgufType type)
{
    switch (type) {
    case GgufType::UInt8:
    case GgufType::Int8:
    case GgufType::Bool:
        return 1;
    case GgufType::UInt16:
    case GgufType::Int16:
        return 2;
    case GgufType::UInt32:
    case GgufType::Int32:
    case GgufType::Float32:
        return 4;
    case GgufType::UInt64:
    case GgufType::Int64:
    case GgufType::Float64:
        return 8;
    case GgufType::String:
    case GgufType::Array:
        return 0;
    }
    return 0;
}

class Reader
{
public:
    Reader(const unsigned char *data, uint64_t size, const std::string &source)
        : m_data(data), m_size(size), m_source(source)
    {}

    uint64_t position() const { return m_at; }
    uint64_t left() const { return m_size - m_at; }

    /// `n` bytes, or a refusal naming `field` when fewer are left.
    const unsigned char *take(uint64_t n, const std::string &field)
    {
        if (n > left())
            refuse(m_source, "the file ends inside " + field + " (it needs " + std::to_string(n) +
                                 " bytes at offset " + std::to_string(m_at) + ", " +
                                 std::to_string(left()) + " are left)");
        const unsigned char *at = m_data + m_at;
        m_at += n;
        return at;
    }

    template <typename T> T scalar(const std::string &field)
    {
        T value;
        std::memcpy(&value, take(sizeof(T), field), sizeof(T)); // little-endian machines only
        return value;
    }

    std::string string(const std::string &field)
    {
        const uint64_t length = scalar<uint64_t>(field + "'s length");
        if (length > GgufFile::kMaxStringBytes)
            refuse(m_source, field + " claims a string of " + std::to_string(length) +
                                 " bytes, more than HeadLens accepts");
        const unsigned char *at = take(length, field);
        return std::string(reinterpret_cast<const char *>(at), length);
    }

    GgufType type(const std::string &field)
    {
        const uint32_t raw = scalar<uint32_t>(field + "'s type");
        if (raw > uint32_t(GgufType::Float64))
            refuse(m_source, field + " has the unknown value type " + std::to_string(raw) +
                                 " (GGUF defines 0 to 12)");
        return GgufType(raw);
    }

    double number(GgufType type, const std::string &field)
    {
        switch (type) {
        case GgufType::UInt8:
            return scalar<uint8_t>(field);
        case GgufType::Int8:
            return scalar<int8_t>(field);
        case GgufType::Bool:
            return scalar<uint8_t>(field) != 0 ? 1.0 : 0.0;
        case GgufType::UInt16:
            return scalar<uint16_t>(field);
        case GgufType::Int16:
            return scalar<int16_t>(field);
        case GgufType::UInt32:
            return scalar<uint32_t>(field);
        case GgufType::Int32:
            return scalar<int32_t>(field);
        case GgufType::Float32:
            return scalar<float>(field);
        case GgufType::UInt64:
            return double(scalar<uint64_t>(field));
        case GgufType::Int64:
            return double(scalar<int64_t>(field));
        case GgufType::Float64:
            return scalar<double>(field);
        case GgufType::String:
        case GgufType::Array:
            break;
        }
        return 0;
    }

    GgufValue value(const std::string &field)
    {
        GgufValue value;
        value.type = type(field);
        if (value.type == GgufType::String) {
            value.text = string(field);
        } else if (value.type == GgufType::Array) {
            value.elementType = type(field + "'s elements");
            const uint64_t count = scalar<uint64_t>(field + "'s length");
            if (value.elementType == GgufType::Array)
                refuse(m_source, field + " is an array of arrays, which no model file holds");
            // Before reserving: every element takes at least its size (a string its length).
            const uint64_t least =
                value.elementType == GgufType::String ? 8 : fixedBytes(value.elementType);
            if (count > left() / least)
                refuse(m_source, field + " claims " + std::to_string(count) +
                                     " elements, more than the rest of the file holds");
            if (value.elementType == GgufType::String) {
                value.texts.reserve(count);
                for (uint64_t i = 0; i < count; ++i)
                    value.texts.push_back(string(field + "[" + std::to_string(i) + "]"));
            } else {
                value.numbers.reserve(count);
                for (uint64_t i = 0; i < count; ++i)
                    value.numbers.push_back(number(value.elementType, field));
            }
        } else {
            value.number = number(value.type, field);
        }
        return value;
    }

private:
    const unsigned char *m_data;
    uint64_t m_size;
    uint64_t m_at = 0;
    const std::string &m_source;
};

uint64_t roundUp(uint64_t value, uint64_t alignment)
{
    return (value + alignment - 1) / alignment * alignment;
}

/// Reads one tensor info; its place in the data is checked once the data's start is known.
GgufTensorInfo tensorInfo(Reader &reader, uint64_t index, const std::string &source)
{
    GgufTensorInfo tensor;
    tensor.name = reader.string("tensor " + std::to_string(index) + "'s name");
    const std::string what = "tensor '" + quotedText(tensor.name) + "'";
    const uint32_t axes = reader.scalar<uint32_t>(what + "'s axis count");
    if (axes == 0 || axes > 4)
        refuse(source,
               what + " has " + std::to_string(axes) + " axes (ggml's tensors have 1 to 4)");
    int64_t count = 1;
    for (uint32_t i = 0; i < axes; ++i) {
        const uint64_t n = reader.scalar<uint64_t>(what + "'s axes");
        if (n > uint64_t(INT64_MAX) || (n != 0 && uint64_t(count) > uint64_t(INT64_MAX) / n))
            refuse(source, what + "'s axes " + std::to_string(n) + " overflow its element count");
        tensor.ne.push_back(int64_t(n));
        count *= int64_t(n);
    }
    tensor.type = reader.scalar<uint32_t>(what + "'s type");
    const GgmlType *type = ggmlType(tensor.type);
    if (!type)
        refuse(source, what + " has the type id " + std::to_string(tensor.type) +
                           ", which ggml does not define");
    tensor.format = type->format;
    if (tensor.ne[0] % type->blockValues != 0)
        refuse(source, what + "'s rows of " + std::to_string(tensor.ne[0]) +
                           " values are not whole " + type->name + " blocks of " +
                           std::to_string(type->blockValues));
    const uint64_t blocks = uint64_t(count / type->blockValues);
    if (blocks > UINT64_MAX / uint64_t(type->blockBytes))
        refuse(source, what + "'s " + std::to_string(count) + " values overflow its byte size");
    tensor.bytes = blocks * uint64_t(type->blockBytes);
    tensor.begin = reader.scalar<uint64_t>(what + "'s offset");
    return tensor;
}

/// Offsets are relative to the data; each tensor must start aligned, end inside the file and
/// not overlap another.
void placeTensors(GgufContents &contents, uint64_t dataStart, uint64_t size,
                  const std::string &source)
{
    std::set<std::string> names;
    for (GgufTensorInfo &tensor : contents.tensors) {
        const std::string what = "tensor '" + quotedText(tensor.name) + "'";
        if (!names.insert(tensor.name).second)
            refuse(source, what + " is listed twice");
        if (tensor.begin % contents.alignment != 0)
            refuse(source, what + "'s offset " + std::to_string(tensor.begin) +
                               " is not a multiple of the alignment " +
                               std::to_string(contents.alignment));
        const uint64_t room = size - dataStart;
        if (tensor.begin > room || tensor.bytes > room - tensor.begin)
            refuse(source, what + " needs " + std::to_string(tensor.bytes) + " bytes at offset " +
                               std::to_string(tensor.begin) + " of the data, but the data has " +
                               std::to_string(room) + " bytes (the file is truncated)");
        tensor.begin += dataStart;
    }
    std::vector<const GgufTensorInfo *> byPlace;
    for (const GgufTensorInfo &tensor : contents.tensors)
        byPlace.push_back(&tensor);
    std::sort(byPlace.begin(), byPlace.end(),
              [](const GgufTensorInfo *a, const GgufTensorInfo *b) { return a->begin < b->begin; });
    for (size_t i = 1; i < byPlace.size(); ++i)
        if (byPlace[i - 1]->begin + byPlace[i - 1]->bytes > byPlace[i]->begin)
            refuse(source, "tensors '" + quotedText(byPlace[i - 1]->name) + "' and '" +
                               quotedText(byPlace[i]->name) + "' overlap");
}

} // namespace

bool GgufValue::isNumber() const
{
    return type != GgufType::String && type != GgufType::Array;
}

bool GgufValue::isInteger() const
{
    return isNumber() && type != GgufType::Float32 && type != GgufType::Float64 &&
           type != GgufType::Bool;
}

bool GgufValue::isArrayOf(GgufType element) const
{
    return type == GgufType::Array && elementType == element;
}

std::vector<int64_t> GgufTensorInfo::shape() const
{
    return std::vector<int64_t>(ne.rbegin(), ne.rend());
}

int64_t GgufTensorInfo::numel() const
{
    int64_t n = 1;
    for (int64_t axis : ne)
        n *= axis;
    return n;
}

std::string GgufTensorInfo::typeName() const
{
    const GgmlType *t = ggmlType(type);
    return t ? t->name : "type " + std::to_string(type);
}

GgufContents GgufFile::parse(const unsigned char *data, uint64_t size,
                             const std::string &sourceName)
{
    Reader reader(data, size, sourceName);
    if (size < 4 || std::memcmp(data, "GGUF", 4) != 0)
        refuse(sourceName, "it does not start with GGUF's magic bytes \"GGUF\"");
    reader.take(4, "the magic");
    GgufContents contents;
    contents.version = reader.scalar<uint32_t>("the version");
    if (contents.version > 0xffff && (contents.version & 0xffff) == 0)
        throw InputError(sourceName + " is a big-endian GGUF file; HeadLens reads little-endian "
                                      "ones, as llama.cpp writes them by default. Convert it "
                                      "again without --bigendian.");
    if (contents.version == 1)
        throw InputError(sourceName + " is GGUF version 1 (2023's first draft), which HeadLens "
                                      "does not read. Convert the model again with a current "
                                      "llama.cpp (versions 2 and 3 are read).");
    if (contents.version != 2 && contents.version != 3)
        refuse(sourceName, "its GGUF version is " + std::to_string(contents.version) +
                               " (HeadLens reads versions 2 and 3)");
    const uint64_t tensorCount = reader.scalar<uint64_t>("the tensor count");
    const uint64_t keyCount = reader.scalar<uint64_t>("the metadata count");
    if (tensorCount > kMaxEntries || keyCount > kMaxEntries)
        refuse(sourceName, "it claims " + std::to_string(tensorCount) + " tensors and " +
                               std::to_string(keyCount) +
                               " metadata entries, more than HeadLens "
                               "accepts");
    for (uint64_t i = 0; i < keyCount; ++i) {
        std::string key = reader.string("metadata key " + std::to_string(i));
        GgufValue value = reader.value("metadata '" + quotedText(key) + "'");
        if (!contents.metadata.emplace(key, std::move(value)).second)
            refuse(sourceName, "metadata '" + quotedText(key) + "' is given twice");
    }
    if (const auto found = contents.metadata.find("general.alignment");
        found != contents.metadata.end()) {
        const GgufValue &alignment = found->second;
        const uint64_t n = alignment.isNumber() && alignment.number >= 1 &&
                                   alignment.number <= double(uint64_t(1) << 30)
                               ? uint64_t(alignment.number)
                               : 0;
        if (alignment.type != GgufType::UInt32 || n == 0 || (n & (n - 1)) != 0)
            refuse(sourceName, "general.alignment must be a power of two stored as a uint32");
        contents.alignment = n;
    }
    for (uint64_t i = 0; i < tensorCount; ++i)
        contents.tensors.push_back(tensorInfo(reader, i, sourceName));
    const uint64_t dataStart = roundUp(reader.position(), contents.alignment);
    if (dataStart > size && !contents.tensors.empty())
        refuse(sourceName, "the file ends before its tensor data starts");
    placeTensors(contents, std::min(dataStart, size), size, sourceName);
    return contents;
}

GgufFile GgufFile::open(const std::string &path)
{
    GgufFile file;
    file.m_mapping = MappedFile::open(path, 4, "the file is shorter than GGUF's magic",
                                      "Give a .gguf file as llama.cpp, Ollama or LM Studio "
                                      "store them.");
    file.m_path = path;
    file.m_contents = parse(file.m_mapping.data(), file.m_mapping.size(), path);
    return file;
}

bool GgufFile::hasMagic(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    char magic[4] = {};
    return in.read(magic, 4) && std::memcmp(magic, "GGUF", 4) == 0;
}

const GgufValue *GgufFile::find(const std::string &key) const
{
    const auto found = m_contents.metadata.find(key);
    return found == m_contents.metadata.end() ? nullptr : &found->second;
}

std::optional<std::string> GgufFile::text(const std::string &key) const
{
    const GgufValue *value = find(key);
    if (!value || value->type != GgufType::String)
        return std::nullopt;
    return value->text;
}

std::optional<double> GgufFile::number(const std::string &key) const
{
    const GgufValue *value = find(key);
    if (!value || !value->isNumber())
        return std::nullopt;
    return value->number;
}

const GgufTensorInfo *GgufFile::tensor(const std::string &name) const
{
    for (const GgufTensorInfo &t : m_contents.tensors)
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace headlens
