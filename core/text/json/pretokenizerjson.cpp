// PreTokenizerJson: one reader per pre-tokenizer type, and the refusal of the others.
#include "text/json/pretokenizerjson.h"

#include "text/json/metaspacejson.h"
#include "text/pipeline/bytelevelpretokenizer.h"
#include "text/pipeline/charactersplitpretokenizer.h"
#include "text/pipeline/pretokenizersequence.h"
#include "text/pipeline/splitpretokenizer.h"
#include "text/pipeline/whitespacepretokenizer.h"

namespace headlens {

namespace {

using Behavior = SplitDelimiter::Behavior;
using CharacterClass = CharacterSplitPreTokenizer::CharacterClass;

constexpr const char *kHandledPreTokenizers =
    "Sequence, ByteLevel, Split, Metaspace, Digits, Whitespace, "
    "WhitespaceSplit, Punctuation, BertPreTokenizer";

std::shared_ptr<const PreTokenizer> readPreTokenizerSequence(const JsonNode &node)
{
    std::vector<std::shared_ptr<const PreTokenizer>> steps;
    for (const JsonNode &step : node.array("pretokenizers")) {
        if (step.isNull())
            step.fail("is null; a Sequence lists pre-tokenizers.");
        steps.push_back(PreTokenizerJson::read(step));
    }
    return std::make_shared<const PreTokenizerSequence>(std::move(steps));
}

std::shared_ptr<const PreTokenizer> splitAt(CharacterClass characters, Behavior behavior)
{
    return std::make_shared<const CharacterSplitPreTokenizer>(characters, behavior);
}

} // namespace

SplitDelimiter::Behavior PreTokenizerJson::behavior(const JsonNode &node, Behavior fallback)
{
    const std::optional<std::string> name = node.optionalString("behavior");
    if (!name)
        return fallback;
    static const std::pair<const char *, Behavior> kNames[] = {
        {"Removed", Behavior::Removed},
        {"Isolated", Behavior::Isolated},
        {"MergedWithPrevious", Behavior::MergedWithPrevious},
        {"MergedWithNext", Behavior::MergedWithNext},
        {"Contiguous", Behavior::Contiguous}};
    for (const auto &[text, value] : kNames)
        if (*name == text)
            return value;
    node.refuseValue("behavior",
                     "Removed, Isolated, MergedWithPrevious, MergedWithNext or Contiguous");
}

std::shared_ptr<const PreTokenizer> PreTokenizerJson::read(const JsonNode &node)
{
    if (node.isNull())
        return nullptr;
    const std::string type = node.type();
    if (type == "Sequence")
        return readPreTokenizerSequence(node);
    if (type == "ByteLevel") // trim_offsets moves offsets only
        return std::make_shared<const ByteLevelPreTokenizer>(node.boolean("add_prefix_space", true),
                                                             node.boolean("use_regex", true));
    if (type == "Split")
        return std::make_shared<const SplitPreTokenizer>(node.pattern("pattern"),
                                                         behavior(node, Behavior::Isolated),
                                                         node.boolean("invert", false));
    if (type == "Metaspace")
        return MetaspaceJson::preTokenizer(node);
    if (type == "Digits")
        return splitAt(CharacterClass::Numeric, node.boolean("individual_digits", false)
                                                    ? Behavior::Isolated
                                                    : Behavior::Contiguous);
    if (type == "Whitespace")
        return std::make_shared<const WhitespacePreTokenizer>();
    if (type == "WhitespaceSplit")
        return splitAt(CharacterClass::Whitespace, Behavior::Removed);
    if (type == "Punctuation")
        return splitAt(CharacterClass::Punctuation, behavior(node, Behavior::Isolated));
    if (type == "BertPreTokenizer")
        return std::make_shared<const PreTokenizerSequence>(
            std::vector<std::shared_ptr<const PreTokenizer>>{
                splitAt(CharacterClass::Whitespace, Behavior::Removed),
                splitAt(CharacterClass::Punctuation, Behavior::Isolated)});
    node.refuseType("pre-tokenizer", kHandledPreTokenizers);
}

bool PreTokenizerJson::prependsFirstOnly(const JsonNode &node)
{
    if (node.isNull())
        return false;
    const std::string type = node.type();
    if (type == "Sequence") {
        for (const JsonNode &step : node.array("pretokenizers"))
            if (prependsFirstOnly(step))
                return true;
        return false;
    }
    return type == "Metaspace" &&
           MetaspaceJson::scheme(node) == MetaspacePreTokenizer::PrependScheme::First;
}

} // namespace headlens
