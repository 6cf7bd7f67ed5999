// PostProcessorJson: templates from their JSON pieces, and BERT's and RoBERTa's as templates.
#include "text/json/postprocessorjson.h"

#include "text/pipeline/templateprocessing.h"
#include "util/quotedtext.h"

namespace headlens {

namespace {

using Piece = TemplateProcessing::Piece;
using Template = TemplateProcessing::Template;

constexpr const char *kHandledPostProcessors =
    "TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel, Sequence";

std::vector<int> specialTokenIds(const JsonNode &specials, const std::string &name)
{
    const JsonNode token = specials.child(name);
    if (token.isNull())
        specials.fail("has no entry for \"" + quotedText(name) + "\", which the template uses.");
    std::vector<int> ids;
    for (const JsonNode &id : token.array("ids")) {
        if (!id.value().is_number_integer() || id.value().get<long long>() < 0 ||
            id.value().get<long long>() > 1'000'000)
            id.fail("is " + quotedText(id.value().dump(), 40) + ", not a token id.");
        ids.push_back(id.value().get<int>());
    }
    if (token.array("tokens").size() != ids.size())
        token.fail("has a different number of ids and tokens.");
    return ids;
}

Template readTemplate(const JsonNode &node, const std::string &key, bool pair)
{
    Template pieces;
    bool usesA = false, usesB = false;
    for (const JsonNode &item : node.array(key)) {
        const bool sequence = item.value().is_object() && item.value().contains("Sequence");
        const bool special = item.value().is_object() && item.value().contains("SpecialToken");
        if (item.value().size() != 1 || !(sequence || special))
            item.fail("is not {\"Sequence\": {...}} or {\"SpecialToken\": {...}}.");
        const JsonNode body = item.child(sequence ? "Sequence" : "SpecialToken");
        Piece piece;
        piece.isSequence = sequence;
        piece.typeId = static_cast<int>(body.integer("type_id", 0, 0, 1'000'000));
        const std::string id = body.string("id", std::nullopt);
        if (sequence) {
            if (id != "A" && id != "B")
                body.fail("names the sequence \"" + quotedText(id) + "\"; only A and B exist.");
            piece.sequence = id == "A" ? 0 : 1;
            (piece.sequence == 0 ? usesA : usesB) = true;
        } else {
            piece.tokenIds = specialTokenIds(node.child("special_tokens"), id);
        }
        pieces.push_back(std::move(piece));
    }
    if (pair ? !(usesA && usesB) : (!usesA || usesB))
        node.child(key).fail(pair ? "must use both sequences A and B."
                                  : "must use sequence A only.");
    return pieces;
}

/// BertProcessing's and RobertaProcessing's [token, id] pairs.
Piece specialPiece(const JsonNode &node, const std::string &key)
{
    const JsonNode field = node.child(key);
    const nlohmann::json &value = field.value();
    if (!value.is_array() || value.size() != 2 || !value[0].is_string() ||
        !value[1].is_number_integer() || value[1].get<long long>() < 0 ||
        value[1].get<long long>() > 1'000'000)
        field.fail("is not [\"token\", id].");
    return {false, 0, {value[1].get<int>()}, 0};
}

std::shared_ptr<const PostProcessor> readBertLike(const JsonNode &node, bool roberta)
{
    Piece cls = specialPiece(node, "cls"), sep = specialPiece(node, "sep");
    const Piece a{true, 0, {}, 0};
    Piece b{true, 1, {}, roberta ? 0 : 1}, sepB = sep;
    sepB.typeId = b.typeId;
    // bert.rs: [CLS] A [SEP] B:1 [SEP]:1; roberta.rs: <s> A </s> </s> B </s>, every type id 0.
    Template pair = roberta ? Template{cls, a, sep, sep, b, sep} : Template{cls, a, sep, b, sepB};
    return std::make_shared<const TemplateProcessing>(Template{cls, a, sep}, std::move(pair));
}

} // namespace

std::shared_ptr<const PostProcessor> PostProcessorJson::read(const JsonNode &node)
{
    if (node.isNull())
        return nullptr;
    const std::string type = node.type();
    if (type == "TemplateProcessing")
        return std::make_shared<const TemplateProcessing>(readTemplate(node, "single", false),
                                                          readTemplate(node, "pair", true));
    if (type == "BertProcessing" || type == "RobertaProcessing")
        return readBertLike(node, type == "RobertaProcessing");
    if (type == "ByteLevel")
        return nullptr; // it trims offsets; ids stay
    if (type == "Sequence") {
        std::shared_ptr<const PostProcessor> adding;
        for (const JsonNode &step : node.array("processors")) {
            if (std::shared_ptr<const PostProcessor> processor = read(step)) {
                if (adding)
                    step.fail("is a second post-processor that adds tokens; HeadLens applies "
                              "one (with ByteLevel steps, which change no id).");
                adding = std::move(processor);
            }
        }
        return adding;
    }
    node.refuseType("post-processor", kHandledPostProcessors);
}

} // namespace headlens
