// TokenizerJson: parses the file, reads each component, and checks the ids they agree on.
#include "text/tokenizerjson.h"

#include "io/wholefile.h"
#include "text/json/decoderjson.h"
#include "text/json/jsonnode.h"
#include "text/json/modeljson.h"
#include "text/json/normalizerjson.h"
#include "text/json/postprocessorjson.h"
#include "text/json/pretokenizerjson.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <fstream>
#include <sstream>
#include <unordered_set>

namespace headlens {

namespace {

nlohmann::json parsed(const std::string &json, const std::string &name)
{
    try {
        nlohmann::json document = nlohmann::json::parse(json);
        if (!document.is_object())
            throw InputError(name + " is not a JSON object, as a Hugging Face tokenizer.json is. "
                                    "Download the tokenizer again.");
        return document;
    } catch (const nlohmann::json::parse_error &error) {
        throw InputError(name + " is not valid JSON (at byte " + std::to_string(error.byte) +
                         "). Download the tokenizer again.");
    }
}

/// added_tokens, with the ids serialization.rs and added_vocabulary.rs give them.
std::vector<AddedToken> readAddedTokens(const JsonNode &root, const TokenizerModel &model,
                                        const Normalizer *normalizer)
{
    std::vector<AddedToken> tokens;
    if (root.child("added_tokens").isNull())
        return tokens;
    std::unordered_set<std::string> contents;
    int nextId = model.size(); // the first id after the vocabulary
    for (const JsonNode &node : root.array("added_tokens")) {
        AddedToken token;
        token.content = node.string("content", std::nullopt);
        if (token.content.empty())
            node.child("content").fail("is empty; an added token needs text to match.");
        if (!contents.insert(token.content).second)
            node.fail("adds \"" + quotedText(token.content) + "\" a second time.");
        const long long fileId = node.integer("id", -1, 0, ModelJson::kMaxId);
        const int modelId = model.idOf(token.content);
        token.id = modelId >= 0 ? modelId : nextId++;
        if (fileId != token.id)
            node.fail("gives \"" + quotedText(token.content) + "\" the id " +
                      std::to_string(fileId) + ", but Hugging Face's library gives it " +
                      std::to_string(token.id) + " (" +
                      (modelId >= 0 ? "its id in the vocabulary" : "the next id after it") +
                      "). The file is inconsistent; download it again.");
        token.special = node.boolean("special", false);
        token.singleWord = node.boolean("single_word", false);
        token.lstrip = node.boolean("lstrip", false);
        token.rstrip = node.boolean("rstrip", false);
        token.normalized = node.boolean("normalized", !token.special);
        if (token.normalized && normalizer && normalizer->normalize(token.content).empty())
            node.fail("is normalized to nothing, so it could never be found.");
        tokens.push_back(std::move(token));
    }
    return tokens;
}

/// The ids a post-processor adds must name tokens: a model looks its embedding up by them.
void checkAddedIds(const TokenizerPipeline &pipeline, const JsonNode &root)
{
    const TokenEncoding pair = pipeline.encodePair("", "");
    std::vector<int> ids = pipeline.encode("");
    ids.insert(ids.end(), pair.ids.begin(), pair.ids.end());
    for (int id : ids)
        if (!pipeline.contains(id))
            root.child("post_processor")
                .fail("adds the id " + std::to_string(id) +
                      ", which no token of the vocabulary or added_tokens has.");
}

} // namespace

TokenizerPipeline TokenizerJson::load(const std::string &path)
{
    return fromText(WholeFile::readText(
                        path, "a Hugging Face model folder keeps its tokenizer in tokenizer.json."),
                    path);
}

TokenizerPipeline TokenizerJson::fromText(const std::string &json, const std::string &name)
{
    const nlohmann::json document = parsed(json, name);
    const JsonNode root(document, name, "");
    const JsonNode normalizer = root.child("normalizer"),
                   preTokenizer = root.child("pre_tokenizer");
    if (PreTokenizerJson::prependsFirstOnly(preTokenizer) &&
        NormalizerJson::mayDropLeadingText(normalizer))
        preTokenizer.fail("has a Metaspace with prepend_scheme \"first\" after a normalizer that "
                          "can remove the first characters; Hugging Face then decides by "
                          "offsets HeadLens does not track, so it refuses this combination.");
    TokenizerPipeline::Parts parts;
    parts.model = ModelJson::read(root.child("model"));
    parts.normalizer = NormalizerJson::read(normalizer);
    parts.preTokenizer = PreTokenizerJson::read(preTokenizer);
    parts.postProcessor = PostProcessorJson::read(root.child("post_processor"));
    parts.decoder = DecoderJson::read(root.child("decoder"));
    parts.addedTokens = AddedTokens(readAddedTokens(root, *parts.model, parts.normalizer.get()));
    TokenizerPipeline pipeline(std::move(parts));
    checkAddedIds(pipeline, root);
    return pipeline;
}

} // namespace headlens
