// MetaspaceJson: the prepend scheme with its legacy spelling, and the two components.
#include "text/json/metaspacejson.h"

#include "text/pipeline/metaspacedecoder.h"

namespace headlens {

using PrependScheme = MetaspacePreTokenizer::PrependScheme;

PrependScheme MetaspaceJson::scheme(const JsonNode &node)
{
    const std::string name = node.string("prepend_scheme", std::string("always"));
    PrependScheme scheme = PrependScheme::Always;
    if (name == "first")
        scheme = PrependScheme::First;
    else if (name == "never")
        scheme = PrependScheme::Never;
    else if (name != "always")
        node.refuseValue("prepend_scheme", "\"first\", \"always\" or \"never\"");
    if (!node.boolean("add_prefix_space", true)) {
        if (scheme != PrependScheme::Never && node.child("prepend_scheme").value().is_string())
            node.fail("has add_prefix_space false but prepend_scheme \"" + name +
                      "\"; Hugging Face refuses this contradiction too. Keep one of them.");
        scheme = PrependScheme::Never;
    }
    return scheme;
}

std::shared_ptr<const PreTokenizer> MetaspaceJson::preTokenizer(const JsonNode &node)
{
    return std::make_shared<const MetaspacePreTokenizer>(node.character("replacement", "\u2581"),
                                                         scheme(node), node.boolean("split", true));
}

std::shared_ptr<const Decoder> MetaspaceJson::decoder(const JsonNode &node)
{
    return std::make_shared<const MetaspaceDecoder>(node.character("replacement", "\u2581"),
                                                    scheme(node));
}

} // namespace headlens
