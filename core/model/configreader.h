// ConfigReader: typed, checked reads of config.json values, each refusal naming the file and key.
#pragma once

#include "attention/ropescaling.h"
#include "model/familytable.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace headlens {

/// Reads one config.json for ModelSpec. Every method throws InputError starting with the
/// file's name, quoting the key and its value, and saying what would be accepted.
class ConfigReader
{
public:
    ConfigReader(const nlohmann::json &json, std::string source)
        : m_json(json), m_source(std::move(source))
    {}

    /// `key`'s fallback when absent or null (or when the family has no such key), else a whole
    /// number in [1, limit].
    int size(const ConfigKey &key, int limit) const;
    /// A number in [FLT_MIN, below) (epsilons below 1, rope_theta): positive once a float32;
    /// the fallback when absent.
    double positive(const ConfigKey &key, double below) const;
    /// A true/false key, `fallback` when absent, null or when `key` is empty.
    bool flag(const std::string &key, bool fallback) const;
    /// A token id (or the first of a list), -1 when absent or null.
    int tokenId(const std::string &key) const;
    /// rope_scaling: null or absent is none; "linear" with factor; "llama3" with factor,
    /// low_freq_factor, high_freq_factor, original_max_position_embeddings. Any other
    /// rope_type is refused by name (HeadLens would compute other frequencies).
    RopeScaling ropeScaling(const std::string &key) const;
    /// The family's activation key must hold its one activation.
    void activation(const FamilyTable &table) const;
    /// `key`, when present and not null, must be the string `value`, which HeadLens runs (what
    /// `meaning` says); nothing is checked when `key` is empty.
    void fixedText(const std::string &key, const std::string &value,
                   const std::string &meaning) const;

    [[noreturn]] void fail(const std::string &what) const;

private:
    const nlohmann::json &m_json;
    std::string m_source;
};

} // namespace headlens
