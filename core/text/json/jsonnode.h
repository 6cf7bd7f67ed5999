// JsonNode: one object of tokenizer.json with its place in the file, for reading and refusing.
#pragma once

#include "text/pipeline/textpattern.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// A JSON value of tokenizer.json together with the file's name and the value's path in it
/// ("pre_tokenizer.pretokenizers[0]"), so that every refusal says where the problem is.
/// Field readers follow the Rust deserializers: a missing or null field takes the default
/// given; a field of the wrong kind is refused. Internal to the tokenizer.json readers.
class JsonNode
{
public:
    JsonNode(const nlohmann::json &value, std::string file, std::string path);

    const nlohmann::json &value() const { return m_value; }
    const std::string &path() const { return m_path; }
    const std::string &file() const { return m_file; }
    /// True for a missing component (JSON null).
    bool isNull() const { return m_value.is_null(); }

    /// The "type" of this component. Refuses a value that is not an object with a string type.
    std::string type() const;
    /// The member `key`, with its path (null when missing).
    JsonNode child(const std::string &key) const;
    /// The elements of the array `key`. Refuses a value that is not an array.
    std::vector<JsonNode> array(const std::string &key) const;

    std::string string(const std::string &key, const std::optional<std::string> &fallback) const;
    std::optional<std::string> optionalString(const std::string &key) const;
    bool boolean(const std::string &key, bool fallback) const;
    /// A whole number in [low, high].
    long long integer(const std::string &key, long long fallback, long long low,
                      long long high) const;
    /// A pattern object {"String": "..."} or {"Regex": "..."} (split.rs SplitPattern).
    TextPattern pattern(const std::string &key) const;
    /// One character (a JSON string of one code point), as UTF-8.
    std::string character(const std::string &key, const std::string &fallback) const;

    /// Throws InputError "<file>: <path> <what>".
    [[noreturn]] void fail(const std::string &what) const;
    /// Refuses this component's type: names it, the file, what HeadLens reads instead and
    /// what to do.
    [[noreturn]] void refuseType(const std::string &kind, const std::string &handled) const;
    /// Refuses the value of field `key`: names it and what HeadLens handles.
    [[noreturn]] void refuseValue(const std::string &key, const std::string &handled) const;

private:
    const nlohmann::json &m_value;
    std::string m_file;
    std::string m_path;
};

} // namespace headlens
