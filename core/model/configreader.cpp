// ConfigReader: nlohmann-json values checked for type and range.
#include "model/configreader.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <nlohmann/json.hpp>

#include <limits>

namespace headlens {

void ConfigReader::fail(const std::string &what) const
{
    throw InputError(m_source + ": " + what);
}

int ConfigReader::size(const ConfigKey &key, int limit) const
{
    const auto found = key.key.empty() ? m_json.end() : m_json.find(key.key);
    if (found == m_json.end() || found->is_null())
        return int(key.fallback);
    if (!found->is_number_integer() || found->get<int64_t>() < 1 || found->get<int64_t>() > limit)
        fail("\"" + key.key + "\" is " + quotedText(found->dump()) +
             ", but it must be a whole number from 1 to " + std::to_string(limit) +
             ". Fix config.json or download it again.");
    return found->get<int>();
}

double ConfigReader::positive(const ConfigKey &key, double below) const
{
    const auto found = key.key.empty() ? m_json.end() : m_json.find(key.key);
    if (found == m_json.end() || found->is_null())
        return key.fallback;
    // At least the smallest normal float: the value is used as a float32, where 1e-92 would be
    // 0 (a LayerNorm dividing by sqrt(var + 0); fuzz_modelconfig found it).
    if (!found->is_number() ||
        !(found->get<double>() >= double(std::numeric_limits<float>::min()) &&
          found->get<double>() < below))
        fail("\"" + key.key + "\" is " + quotedText(found->dump()) +
             (below <= 1.0 ? ", but it must be a small positive number such as 1e-05."
                           : ", but it must be a positive number such as 10000."));
    return found->get<double>();
}

bool ConfigReader::flag(const std::string &key, bool fallback) const
{
    const auto found = key.empty() ? m_json.end() : m_json.find(key);
    if (found == m_json.end() || found->is_null())
        return fallback;
    if (!found->is_boolean())
        fail("\"" + key + "\" is " + quotedText(found->dump()) +
             ", but it must be true or false. Fix config.json.");
    return found->get<bool>();
}

int ConfigReader::tokenId(const std::string &key) const
{
    const auto found = m_json.find(key);
    if (found == m_json.end() || found->is_null())
        return -1;
    const nlohmann::json &id = found->is_array() && !found->empty() ? found->front() : *found;
    if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() > (1 << 24))
        fail("\"" + key + "\" is " + quotedText(found->dump()) +
             ", but it must be a token id (a whole number >= 0). Fix config.json.");
    return id.get<int>();
}

RopeScaling ConfigReader::ropeScaling(const std::string &key) const
{
    RopeScaling scaling;
    const auto found = key.empty() ? m_json.end() : m_json.find(key);
    if (found == m_json.end() || found->is_null())
        return scaling;
    const auto field = [&](const char *name) { return found->find(name); };
    const auto type = found->is_object()
                          ? (found->contains("rope_type") ? field("rope_type") : field("type"))
                          : found->end();
    const std::string kind =
        type != found->end() && type->is_string() ? type->get<std::string>() : "";
    if (kind == "default")
        return scaling;
    if (kind != "linear" && kind != "llama3")
        fail("\"" + key + "\" is " + quotedText(found->dump()) +
             ", but HeadLens computes RoPE's frequencies only for rope_type \"default\", "
             "\"linear\" and \"llama3\". Open a checkpoint with one of those.");
    const auto number = [&](const char *name, double fallback, bool whole) {
        const auto value = field(name);
        if (value == found->end())
            return fallback;
        if (!value->is_number() || !(value->get<double>() > 0.0) ||
            (whole && !value->is_number_integer()))
            fail("rope_scaling's \"" + std::string(name) + "\" is " + quotedText(value->dump()) +
                 ", but it must be a positive number. Fix config.json.");
        return value->get<double>();
    };
    scaling.kind = kind == "linear" ? RopeScaling::Kind::Linear : RopeScaling::Kind::Llama3;
    scaling.factor = number("factor", 1.0, false);
    scaling.lowFreqFactor = number("low_freq_factor", 1.0, false);
    scaling.highFreqFactor = number("high_freq_factor", 4.0, false);
    scaling.originalContext = int(number("original_max_position_embeddings", 8192, true));
    if (scaling.kind == RopeScaling::Kind::Llama3 &&
        !(scaling.highFreqFactor > scaling.lowFreqFactor))
        fail("rope_scaling's high_freq_factor must be larger than low_freq_factor. Fix "
             "config.json.");
    return scaling;
}

void ConfigReader::activation(const FamilyTable &t) const
{
    fixedText(t.activationKey, t.activation, t.activationMeaning);
}

void ConfigReader::fixedText(const std::string &key, const std::string &value,
                             const std::string &meaning) const
{
    if (key.empty())
        return;
    if (const auto found = m_json.find(key);
        found != m_json.end() && !found->is_null() && *found != value)
        fail(key + " is " + quotedText(found->dump()) + "; HeadLens runs " + meaning + ".");
}

} // namespace headlens
