// ModelJson: the vocabulary, the merges in both spellings, and each model's options.
#include "text/json/modeljson.h"

#include "text/pipeline/bpemodel.h"
#include "text/pipeline/wordpiecemodel.h"
#include "util/quotedtext.h"

#include <unordered_set>

namespace headlens {

namespace {

std::unordered_map<std::string, int> readVocabulary(const JsonNode &node)
{
    const JsonNode vocab = node.child("vocab");
    if (vocab.isNull())
        node.fail("(" + node.type() + ") has no \"vocab\": the tokenizer.json is incomplete. " +
                  "Download it again.");
    if (!vocab.value().is_object())
        vocab.fail("is not a JSON object of tokens and ids.");
    std::unordered_map<std::string, int> vocabulary;
    std::unordered_set<int> ids;
    vocabulary.reserve(vocab.value().size());
    for (const auto &[token, value] : vocab.value().items()) {
        const std::string what = "token \"" + quotedText(token) + "\"";
        if (!value.is_number_integer() || value.get<long long>() < 0 ||
            value.get<long long>() > ModelJson::kMaxId)
            vocab.fail(what + " has the id " + quotedText(value.dump(), 40) +
                       "; ids are whole numbers from 0 to " + std::to_string(ModelJson::kMaxId) +
                       ".");
        const int id = value.get<int>();
        if (!ids.insert(id).second)
            vocab.fail(what + " has the id " + std::to_string(id) +
                       ", which another token already has. Ids must be unique.");
        vocabulary.emplace(token, id);
    }
    return vocabulary;
}

/// One merge, as "left right" or ["left", "right"].
std::pair<std::string, std::string> readMerge(const JsonNode &merge)
{
    const nlohmann::json &value = merge.value();
    if (value.is_array() && value.size() == 2 && value[0].is_string() && value[1].is_string())
        return {value[0].get<std::string>(), value[1].get<std::string>()};
    if (value.is_string()) {
        const std::string line = value.get<std::string>();
        const size_t space = line.find(' ');
        if (space != std::string::npos && line.find(' ', space + 1) == std::string::npos)
            return {line.substr(0, space), line.substr(space + 1)};
    }
    merge.fail("is " + quotedText(value.dump(), 60) +
               ", not \"left right\" (one space) or [\"left\", \"right\"].");
}

BpeModel::MergeList readMerges(const JsonNode &node, const BpeModel::Vocabulary &vocabulary,
                               const std::string &prefix)
{
    BpeModel::MergeList merges;
    for (const JsonNode &merge : node.array("merges")) {
        if (merge.value().is_string() && merge.value().get<std::string>().rfind("#version", 0) == 0)
            continue; // model.rs convert_merges_to_hashmap skips these lines
        auto [left, right] = readMerge(merge);
        const bool prefixFits = right.size() >= prefix.size() &&
                                (right.size() == prefix.size() ||
                                 (static_cast<unsigned char>(right[prefix.size()]) & 0xC0) != 0x80);
        if (!prefixFits)
            merge.fail("has the right part \"" + quotedText(right) +
                       "\", shorter than the continuing_subword_prefix it should start with.");
        for (const std::string &token : {left, right, left + right.substr(prefix.size())})
            if (vocabulary.count(token) == 0)
                merge.fail("uses the token \"" + quotedText(token) +
                           "\", which the vocab does not have: the merges and the vocabulary " +
                           "do not belong together.");
        merges.emplace_back(std::move(left), std::move(right));
    }
    return merges;
}

std::string checkedUnk(const JsonNode &node, const std::string &unk,
                       const std::unordered_map<std::string, int> &vocabulary)
{
    if (vocabulary.count(unk) == 0)
        node.child("unk_token")
            .fail("is \"" + quotedText(unk) + "\", which the vocab does not have.");
    return unk;
}

std::shared_ptr<const TokenizerModel> readBpe(const JsonNode &node)
{
    const JsonNode dropout = node.child("dropout");
    if (!dropout.isNull() && !(dropout.value().is_number() && dropout.value().get<double>() == 0))
        node.refuseValue("dropout", "null or 0: dropout makes tokenizing random, for training");
    BpeModel::Vocabulary vocabulary = readVocabulary(node);
    BpeModel::Options options;
    if (const auto unk = node.optionalString("unk_token"))
        options.unkToken = checkedUnk(node, *unk, vocabulary);
    options.fuseUnk = node.boolean("fuse_unk", false);
    options.byteFallback = node.boolean("byte_fallback", false);
    options.ignoreMerges = node.boolean("ignore_merges", false);
    options.continuingSubwordPrefix = node.string("continuing_subword_prefix", std::string());
    options.endOfWordSuffix = node.string("end_of_word_suffix", std::string());
    const BpeModel::MergeList merges =
        readMerges(node, vocabulary, options.continuingSubwordPrefix);
    return std::make_shared<const BpeModel>(std::move(vocabulary), merges, std::move(options));
}

std::shared_ptr<const TokenizerModel> readWordPiece(const JsonNode &node)
{
    WordPieceModel::Vocabulary vocabulary = readVocabulary(node);
    WordPieceModel::Options options;
    options.unkToken = checkedUnk(node, node.string("unk_token", options.unkToken), vocabulary);
    options.continuingSubwordPrefix =
        node.string("continuing_subword_prefix", options.continuingSubwordPrefix);
    options.maxInputCharsPerWord =
        static_cast<size_t>(node.integer("max_input_chars_per_word", 100, 0, 1'000'000'000));
    return std::make_shared<const WordPieceModel>(std::move(vocabulary), std::move(options));
}

} // namespace

std::shared_ptr<const TokenizerModel> ModelJson::read(const JsonNode &node)
{
    if (node.isNull())
        node.fail("is missing: a tokenizer.json needs a model (BPE or WordPiece) with its "
                  "vocab. Download the file again.");
    const std::string type = node.type();
    if (type == "BPE")
        return readBpe(node);
    if (type == "WordPiece")
        return readWordPiece(node);
    node.refuseType("model", "BPE, WordPiece");
}

} // namespace headlens
