// GgufBytes: a GGUF file built field by field, for the reader's refusals and the fuzz seeds.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace headlens::test {

/// Writes what GgufFile::parse reads (gguf.md), little-endian, with every field settable, so a
/// test can break exactly one of them. The goldens of real content come from
/// scripts/make_gguf_tiny.py, not from here.
class GgufBytes
{
public:
    uint32_t version = 3;
    uint64_t alignment = 32;
    /// Overrides of the counts the header declares (-1: the true count).
    int64_t declaredTensors = -1;
    int64_t declaredKeys = -1;

    GgufBytes &text(const std::string &key, const std::string &value)
    {
        keyed(key, 8);
        string(m_keys, value);
        return *this;
    }
    GgufBytes &u32(const std::string &key, uint32_t value)
    {
        keyed(key, 4);
        put(m_keys, value);
        return *this;
    }
    GgufBytes &f32(const std::string &key, float value)
    {
        keyed(key, 6);
        put(m_keys, value);
        return *this;
    }
    GgufBytes &boolean(const std::string &key, bool value)
    {
        keyed(key, 7);
        put(m_keys, uint8_t(value));
        return *this;
    }
    GgufBytes &texts(const std::string &key, const std::vector<std::string> &values)
    {
        keyed(key, 9);
        put(m_keys, uint32_t(8));
        put(m_keys, uint64_t(values.size()));
        for (const std::string &v : values)
            string(m_keys, v);
        return *this;
    }
    GgufBytes &numbers(const std::string &key, const std::vector<float> &values)
    {
        keyed(key, 9);
        put(m_keys, uint32_t(6));
        put(m_keys, uint64_t(values.size()));
        for (float v : values)
            put(m_keys, v);
        return *this;
    }
    /// Any bytes after a key: a value of a type the test makes up.
    GgufBytes &raw(const std::string &key, const std::string &typeAndValue)
    {
        string(m_keys, key);
        m_keys += typeAndValue;
        ++m_keyCount;
        return *this;
    }

    /// A tensor of ggml type `type` with axes `ne` (innermost first) and `data` bytes placed at
    /// `offset` of the data section (-1: after the previous tensor, aligned).
    GgufBytes &tensor(const std::string &name, std::vector<uint64_t> ne, uint32_t type,
                      const std::string &data, int64_t offset = -1)
    {
        if (offset < 0)
            offset = int64_t((m_data.size() + alignment - 1) / alignment * alignment);
        string(m_infos, name);
        put(m_infos, uint32_t(ne.size()));
        for (uint64_t n : ne)
            put(m_infos, n);
        put(m_infos, type);
        put(m_infos, uint64_t(offset));
        if (m_data.size() < size_t(offset) + data.size())
            m_data.resize(size_t(offset) + data.size(), '\0');
        m_data.replace(size_t(offset), data.size(), data);
        ++m_tensorCount;
        return *this;
    }

    std::string build() const
    {
        std::string out = "GGUF";
        put(out, version);
        put(out, uint64_t(declaredTensors >= 0 ? uint64_t(declaredTensors) : m_tensorCount));
        put(out, uint64_t(declaredKeys >= 0 ? uint64_t(declaredKeys) : m_keyCount));
        out += m_keys + m_infos;
        out.resize((out.size() + alignment - 1) / alignment * alignment, '\0');
        return out + m_data;
    }

    /// `count` float32 values as bytes.
    static std::string floats(const std::vector<float> &values)
    {
        std::string out(values.size() * 4, '\0');
        std::memcpy(out.data(), values.data(), out.size());
        return out;
    }

private:
    template <typename T> static void put(std::string &out, T value)
    {
        char bytes[sizeof(T)];
        std::memcpy(bytes, &value, sizeof(T));
        out.append(bytes, sizeof(T));
    }
    static void string(std::string &out, const std::string &s)
    {
        put(out, uint64_t(s.size()));
        out += s;
    }
    void keyed(const std::string &key, uint32_t type)
    {
        string(m_keys, key);
        put(m_keys, type);
        ++m_keyCount;
    }

    std::string m_keys, m_infos, m_data;
    uint64_t m_keyCount = 0, m_tensorCount = 0;
};

} // namespace headlens::test
