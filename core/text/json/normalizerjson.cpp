// NormalizerJson: one reader per normalizer type, and the refusal of the others.
#include "text/json/normalizerjson.h"

#include "text/pipeline/bertnormalizer.h"
#include "text/pipeline/lowercasenormalizer.h"
#include "text/pipeline/normalizersequence.h"
#include "text/pipeline/prependnormalizer.h"
#include "text/pipeline/replacenormalizer.h"
#include "text/pipeline/stripaccentsnormalizer.h"
#include "text/pipeline/stripnormalizer.h"
#include "text/pipeline/unicodenormalizer.h"

namespace headlens {

namespace {

constexpr const char *kHandledNormalizers = "Sequence, NFC, NFD, NFKC, NFKD, Lowercase, Strip, "
                                            "StripAccents, Prepend, Replace, BertNormalizer";

std::shared_ptr<const Normalizer> readBert(const JsonNode &node)
{
    BertNormalizer::Options options;
    options.cleanText = node.boolean("clean_text", true);
    options.handleChineseChars = node.boolean("handle_chinese_chars", true);
    options.lowercase = node.boolean("lowercase", true);
    options.stripAccents = node.boolean("strip_accents", options.lowercase); // null: as lowercase
    return std::make_shared<const BertNormalizer>(options);
}

std::shared_ptr<const Normalizer> readNormalizerSequence(const JsonNode &node)
{
    std::vector<std::shared_ptr<const Normalizer>> steps;
    for (const JsonNode &step : node.array("normalizers")) {
        if (step.isNull())
            step.fail("is null; a Sequence lists normalizers.");
        steps.push_back(NormalizerJson::read(step));
    }
    return std::make_shared<const NormalizerSequence>(std::move(steps));
}

} // namespace

std::shared_ptr<const Normalizer> NormalizerJson::read(const JsonNode &node)
{
    if (node.isNull())
        return nullptr;
    const std::string type = node.type();
    if (type == "Sequence")
        return readNormalizerSequence(node);
    if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
        const UnicodeText::Form form = type == "NFC"    ? UnicodeText::Form::NFC
                                       : type == "NFD"  ? UnicodeText::Form::NFD
                                       : type == "NFKC" ? UnicodeText::Form::NFKC
                                                        : UnicodeText::Form::NFKD;
        return std::make_shared<const UnicodeNormalizer>(form);
    }
    if (type == "Lowercase")
        return std::make_shared<const LowercaseNormalizer>();
    if (type == "Strip")
        return std::make_shared<const StripNormalizer>(node.boolean("strip_left", true),
                                                       node.boolean("strip_right", true));
    if (type == "StripAccents")
        return std::make_shared<const StripAccentsNormalizer>();
    if (type == "Prepend")
        return std::make_shared<const PrependNormalizer>(node.string("prepend", std::nullopt));
    if (type == "Replace")
        return std::make_shared<const ReplaceNormalizer>(node.pattern("pattern"),
                                                         node.string("content", std::nullopt));
    if (type == "BertNormalizer")
        return readBert(node);
    node.refuseType("normalizer", kHandledNormalizers);
}

bool NormalizerJson::mayDropLeadingText(const JsonNode &node)
{
    if (node.isNull())
        return false;
    const std::string type = node.type();
    if (type == "Sequence") {
        for (const JsonNode &step : node.array("normalizers"))
            if (mayDropLeadingText(step))
                return true;
        return false;
    }
    return (type == "Strip" && node.boolean("strip_left", true)) || type == "BertNormalizer" ||
           type == "StripAccents" ||
           (type == "Replace" && node.optionalString("content").value_or("x").empty());
}

} // namespace headlens
