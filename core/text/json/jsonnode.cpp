// JsonNode: typed field access with defaults, and messages naming the file and the place.
#include "text/json/jsonnode.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

namespace headlens {

namespace {

const nlohmann::json kNull = nullptr;

} // namespace

JsonNode::JsonNode(const nlohmann::json &value, std::string file, std::string path)
    : m_value(value), m_file(std::move(file)), m_path(std::move(path))
{}

void JsonNode::fail(const std::string &what) const
{
    throw InputError(m_file + ": " + m_path + " " + what);
}

void JsonNode::refuseType(const std::string &kind, const std::string &handled) const
{
    fail("is a " + kind + " of type \"" + quotedText(type()) + "\", which HeadLens does not " +
         "implement (it reads " + handled + "). HeadLens refuses rather than tokenize " +
         "differently from Hugging Face: choose a model whose tokenizer.json uses these.");
}

void JsonNode::refuseValue(const std::string &key, const std::string &handled) const
{
    const nlohmann::json &field =
        m_value.is_object() && m_value.contains(key) ? m_value[key] : kNull;
    fail("(" + quotedText(type()) + ") has \"" + quotedText(key) +
         "\": " + quotedText(field.dump()) + ", which HeadLens does not handle (" + handled +
         "). HeadLens refuses rather than tokenize differently from Hugging Face.");
}

std::string JsonNode::type() const
{
    if (!m_value.is_object())
        fail("is " + quotedText(m_value.dump(), 40) + ", not a JSON object with a \"type\".");
    const auto found = m_value.find("type");
    if (found == m_value.end() || !found->is_string())
        fail("has no \"type\" naming the component; Hugging Face tokenizer.json files have one.");
    return found->get<std::string>();
}

JsonNode JsonNode::child(const std::string &key) const
{
    const bool present = m_value.is_object() && m_value.contains(key);
    return JsonNode(present ? m_value[key] : kNull, m_file,
                    m_path.empty() ? key : m_path + "." + key);
}

std::vector<JsonNode> JsonNode::array(const std::string &key) const
{
    const JsonNode list = child(key);
    if (!list.m_value.is_array())
        list.fail("is not a JSON array.");
    std::vector<JsonNode> items;
    for (size_t i = 0; i < list.m_value.size(); ++i)
        items.emplace_back(list.m_value[i], m_file, list.m_path + "[" + std::to_string(i) + "]");
    return items;
}

std::optional<std::string> JsonNode::optionalString(const std::string &key) const
{
    const JsonNode field = child(key);
    if (field.isNull())
        return std::nullopt;
    if (!field.m_value.is_string())
        field.fail("is " + quotedText(field.m_value.dump(), 40) + ", not a string.");
    return field.m_value.get<std::string>();
}

std::string JsonNode::string(const std::string &key,
                             const std::optional<std::string> &fallback) const
{
    const std::optional<std::string> text = optionalString(key);
    if (!text && !fallback)
        child(key).fail("is missing; the component needs it.");
    return text ? *text : *fallback;
}

bool JsonNode::boolean(const std::string &key, bool fallback) const
{
    const JsonNode field = child(key);
    if (field.isNull())
        return fallback;
    if (!field.m_value.is_boolean())
        field.fail("is " + quotedText(field.m_value.dump(), 40) + ", not true or false.");
    return field.m_value.get<bool>();
}

long long JsonNode::integer(const std::string &key, long long fallback, long long low,
                            long long high) const
{
    const JsonNode field = child(key);
    if (field.isNull())
        return fallback;
    if (!field.m_value.is_number_integer() ||
        (field.m_value.is_number_unsigned() &&
         field.m_value.get<unsigned long long>() > static_cast<unsigned long long>(high)) ||
        field.m_value.get<long long>() < low || field.m_value.get<long long>() > high)
        field.fail("is " + quotedText(field.m_value.dump(), 40) + ", not a whole number from " +
                   std::to_string(low) + " to " + std::to_string(high) + ".");
    return field.m_value.get<long long>();
}

TextPattern JsonNode::pattern(const std::string &key) const
{
    const JsonNode field = child(key);
    const nlohmann::json &value = field.m_value;
    const bool literal = value.is_object() && value.size() == 1 && value.contains("String");
    const bool regex = value.is_object() && value.size() == 1 && value.contains("Regex");
    if (!(literal || regex) || !value.begin()->is_string())
        field.fail("is " + quotedText(value.dump(), 60) +
                   ", not {\"String\": \"...\"} or {\"Regex\": \"...\"}.");
    try {
        const std::string text = value.begin()->get<std::string>();
        return literal ? TextPattern::literal(text) : TextPattern::regex(text);
    } catch (const InputError &error) {
        field.fail(std::string("cannot be used: ") + error.what());
    }
}

std::string JsonNode::character(const std::string &key, const std::string &fallback) const
{
    const std::string text = string(key, fallback);
    size_t characters = 0;
    for (unsigned char byte : text)
        characters += (byte & 0xC0) != 0x80;
    if (characters != 1)
        child(key).fail("is \"" + quotedText(text) + "\", not one character.");
    return text;
}

} // namespace headlens
