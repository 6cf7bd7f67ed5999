// TokenizerConfig: parses tokenizer_config.json, checks the keys HeadLens reads, and names ids.
#include "text/tokenizerconfig.h"

#include "io/wholefile.h"
#include "text/json/jsonnode.h"
#include "text/pipeline/tokenizermodel.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>

namespace headlens {

namespace {

const char *const kFlags[] = {"do_lower_case",    "tokenize_chinese_chars", "strip_accents",
                              "add_prefix_space", "add_bos_token",          "add_eos_token"};
const char *const kTokens[] = {"bos_token", "eos_token", "unk_token", "sep_token",
                               "pad_token", "cls_token", "mask_token"};

/// {"content": ..., "lstrip": ..., ...}: transformers' saved AddedToken (tokenization_utils_base
/// AddedToken.__getstate__); options it leaves out take AddedToken's defaults.
AddedToken readTokenObject(const JsonNode &node)
{
    AddedToken token;
    token.content = node.string("content", std::nullopt);
    if (token.content.empty())
        node.child("content").fail("is empty; a special token needs text.");
    token.special = node.boolean("special", true);
    token.singleWord = node.boolean("single_word", false);
    token.lstrip = node.boolean("lstrip", false);
    token.rstrip = node.boolean("rstrip", false);
    token.normalized = node.boolean("normalized", !token.special);
    return token;
}

} // namespace

TokenizerConfig TokenizerConfig::read(const std::string &path)
{
    if (!std::filesystem::exists(path))
        return {};
    return fromText(WholeFile::readText(path, "check its permissions, or remove it to use the "
                                              "tokenizer's defaults."),
                    path);
}

TokenizerConfig TokenizerConfig::fromText(const std::string &json, const std::string &name)
{
    const nlohmann::json document = nlohmann::json::parse(json, nullptr, false);
    if (document.is_discarded() || !document.is_object())
        throw InputError(name + " is not a JSON object, as transformers' tokenizer_config.json "
                                "is. Download it again, or remove it to use the defaults.");
    const JsonNode root(document, name, "");
    TokenizerConfig config;
    config.m_name = name;
    for (const char *key : kFlags)
        if (!root.child(key).isNull())
            config.m_flags[key] = root.boolean(key, false);
    for (const char *key : kTokens) {
        if (!document.contains(key))
            continue;
        const JsonNode node = root.child(key);
        std::optional<AddedToken> token;
        if (node.value().is_string()) {
            token = AddedToken{node.value().get<std::string>()};
            if (token->content.empty())
                node.fail("is empty; a special token needs text.");
            config.m_textOnly.insert(key);
        } else if (node.value().is_object()) {
            token = readTokenObject(node);
        } else if (!node.isNull()) {
            node.fail("is " + quotedText(node.value().dump(), 40) +
                      ", not a token's text or {\"content\": ...}.");
        }
        config.m_tokens[key] = token;
    }
    return config;
}

std::optional<bool> TokenizerConfig::flag(const std::string &key) const
{
    const auto found = m_flags.find(key);
    return found == m_flags.end() ? std::nullopt : std::optional<bool>(found->second);
}

std::optional<AddedToken> TokenizerConfig::token(const std::string &key,
                                                 const AddedToken &fallback) const
{
    const auto found = m_tokens.find(key);
    if (found == m_tokens.end())
        return fallback;
    if (!found->second)
        return std::nullopt;
    AddedToken token = *found->second;
    if (m_textOnly.count(key)) { // a string: the class's options for its token
        const std::string content = token.content;
        token = fallback;
        token.content = content;
    }
    return token;
}

std::vector<AddedToken> TokenizerConfig::specialTokens(const std::vector<NamedToken> &named,
                                                       const TokenizerModel &model) const
{
    std::vector<AddedToken> tokens;
    std::unordered_set<std::string> contents;
    int nextId = model.size();
    for (const NamedToken &entry : named) {
        std::optional<AddedToken> token = this->token(entry.key, entry.fallback);
        if (!token || !contents.insert(token->content).second)
            continue;
        const int modelId = model.idOf(token->content);
        token->id = modelId >= 0 ? modelId : nextId++;
        tokens.push_back(std::move(*token));
    }
    return tokens;
}

void TokenizerConfig::fail(const std::string &key, const std::string &what) const
{
    throw InputError(m_name + ": " + key + " " + what);
}

} // namespace headlens
