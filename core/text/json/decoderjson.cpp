// DecoderJson: one reader per decoder type, and the refusal of the others.
#include "text/json/decoderjson.h"

#include "text/json/metaspacejson.h"
#include "text/pipeline/bytefallbackdecoder.h"
#include "text/pipeline/byteleveldecoder.h"
#include "text/pipeline/decodersequence.h"
#include "text/pipeline/fusedecoder.h"
#include "text/pipeline/replacedecoder.h"
#include "text/pipeline/stripdecoder.h"
#include "text/pipeline/wordpiecedecoder.h"

namespace headlens {

namespace {

constexpr const char *kHandledDecoders =
    "ByteLevel, Metaspace, ByteFallback, Fuse, Strip, Replace, WordPiece, Sequence";

std::shared_ptr<const Decoder> readDecoderSequence(const JsonNode &node)
{
    std::vector<std::shared_ptr<const Decoder>> steps;
    for (const JsonNode &step : node.array("decoders")) {
        if (step.isNull())
            step.fail("is null; a Sequence lists decoders.");
        steps.push_back(DecoderJson::read(step));
    }
    return std::make_shared<const DecoderSequence>(std::move(steps));
}

} // namespace

std::shared_ptr<const Decoder> DecoderJson::read(const JsonNode &node)
{
    if (node.isNull())
        return nullptr;
    const std::string type = node.type();
    if (type == "ByteLevel")
        return std::make_shared<const ByteLevelDecoder>();
    if (type == "Metaspace")
        return MetaspaceJson::decoder(node);
    if (type == "ByteFallback")
        return std::make_shared<const ByteFallbackDecoder>();
    if (type == "Fuse")
        return std::make_shared<const FuseDecoder>();
    if (type == "Strip") {
        const long long limit = 1'000'000;
        return std::make_shared<const StripDecoder>(
            node.character("content", " "), static_cast<size_t>(node.integer("start", 0, 0, limit)),
            static_cast<size_t>(node.integer("stop", 0, 0, limit)));
    }
    if (type == "Replace")
        return std::make_shared<const ReplaceDecoder>(node.pattern("pattern"),
                                                      node.string("content", std::nullopt));
    if (type == "WordPiece")
        return std::make_shared<const WordPieceDecoder>(node.string("prefix", std::string("##")),
                                                        node.boolean("cleanup", true));
    if (type == "Sequence")
        return readDecoderSequence(node);
    node.refuseType("decoder", kHandledDecoders);
}

} // namespace headlens
