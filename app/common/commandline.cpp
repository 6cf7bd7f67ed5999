// CommandLine: the loop over the arguments; each group of options reads its own values.
#include "commandline.h"

#include "layeroptions.h"
#include "optionvalues.h"
#include "printoptions.h"
#include "text/tokenizer.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"
#include "windowoptions.h"

#include <tuple>

namespace headlens {

namespace {

/// The input, output and model options that take a value, and every group's (layer, training,
/// interventions); false when `option` is none of them.
bool applyValueOption(CommandLineRequest &r, const std::string &option, const std::string &value)
{
    if (option == "--text")
        r.texts.push_back(value);
    else if (option == "--text-file") {
        r.textFile = OptionValues::textFile(value);
        for (const std::string &line : Tokenizer::splitLines(r.textFile))
            r.texts.push_back(line);
    } else if (option == "--kv-text")
        r.kvTexts.push_back(value);
    else if (option == "--text-pair")
        r.textPair = value;
    else if (option == "--input")
        r.inputPath = value;
    else if (option == "--kv-input")
        r.kvInputPath = value;
    else if (option == "--key-padding-mask")
        r.maskPath = value;
    else if (option == "--weights")
        r.weightsPath = value;
    else if (option == "--model")
        r.modelDir = value;
    else if (option == "--layer")
        r.modelLayer = OptionValues::index(option, value);
    else if (option == "--token-ids")
        for (const std::string &id : OptionValues::commaList(value))
            r.tokenIds.push_back(OptionValues::index(option, id));
    else if (LayerOptions::take(r.config, option, value))
        r.dModelGiven = r.dModelGiven || option == "--d-model";
    else if (r.train.take(option, value) || r.intervene.take(option, value))
        return true;
    else if (option == "--dla") {
        // TOKEN[,WRONG]: the first comma splits (a token is a word, "," alone is ",,WRONG").
        const size_t comma = value.find(',', value.rfind(",,", 0) == 0 ? 1 : 0);
        r.lens.token = value.substr(0, comma);
        r.lens.wrong = comma == std::string::npos ? std::string() : value.substr(comma + 1);
        if (r.lens.token.empty())
            throw InputError("--dla expects the token whose logit to split up, e.g. --dla \" "
                             "Paris\" or --dla \" Paris, London\" for logit(Paris) - "
                             "logit(London).");
    } else if (option == "--circuits") {
        const auto [layer, head] = OptionValues::layerHead(option, value);
        r.lens.circuitsLayer = layer;
        r.lens.circuitsHead = head - 1; // heads from 1 on the command line
    } else if (option == "--dla-position")
        r.lens.position = OptionValues::size(option, value) - 1; // tokens from 1
    else if (option == "--export-dir")
        r.exportDir = value;
    else if (option == "--figures")
        r.figureFormats = OptionValues::commaList(value);
    else if (option == "--figure")
        r.figureContents = PrintOptions::figureContents(value);
    else if (option == "--figure-size")
        std::tie(r.figureWidthInches, r.figureHeightInches) = PrintOptions::figureSize(value);
    else if (option == "--dpi")
        r.figureDpi = PrintOptions::dpi(OptionValues::integer(option, value));
    else
        return false;
    return true;
}

bool applyFlag(CommandLineRequest &r, const std::string &option)
{
    if (option == "--causal")
        r.config.causal = true;
    else if (option == "--no-bias")
        r.config.bias = false;
    else if (option == "--layer-norm")
        r.train.layerNorm = true;
    else if (option == "--train-lm")
        r.train.languageModel = true;
    else if (option == "--attention-only")
        r.train.attentionOnly = true;
    else if (option == "--print-shapes")
        r.printShapes = true;
    else if (option == "--stats")
        r.printStats = true;
    else if (option == "--fill-mask")
        r.fillMask = true;
    else if (option == "--compare")
        r.compare = true;
    else if (option == "--importance")
        r.intervene.importance = true;
    else if (option == "--logit-lens")
        r.lens.logitLens = true;
    else if (option == "--atlas")
        r.lens.atlas = true;
    else if (option == "--rollout")
        r.lens.flow = true;
    else if (option == "--json")
        r.json = true;
    else if (option == "--help" || option == "-h")
        r.help = true;
    else if (option == "--version")
        r.version = true;
    else if (option == "--list-models")
        r.listModels = true;
    else
        return false;
    return true;
}

} // namespace

CommandLineRequest CommandLine::parse(const std::vector<std::string> &arguments,
                                      bool allowWindowOptions)
{
    CommandLineRequest request;
    for (size_t i = 0; i < arguments.size(); ++i) {
        std::string option = arguments[i];
        std::string value;
        bool hasInlineValue = false;
        if (const size_t eq = option.find('=');
            option.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = option.substr(eq + 1);
            option = option.substr(0, eq);
            hasInlineValue = true;
        }
        if (!allowWindowOptions && option == "--cost") {
            request.cost.requested = true;
            continue;
        }
        if (applyFlag(request, option)) {
            request.anySetting = true;
            request.given.insert(option);
            continue;
        }
        const bool windowOption = allowWindowOptions || WindowOptions::isHandoutOption(option);
        if (windowOption && WindowOptions::takeFlag(request, option))
            continue;
        if (option.rfind("-", 0) != 0) {
            if (!allowWindowOptions)
                throw InputError("Unexpected argument '" + quotedText(option) +
                                 "'. Put a sentence after --text, e.g. --text \"" +
                                 quotedText(option) + "\".");
            request.workspacePath = option;
            continue;
        }
        if (!hasInlineValue) {
            if (i + 1 >= arguments.size())
                throw InputError(option + " needs a value. See --help.");
            value = arguments[++i];
        }
        if (windowOption && WindowOptions::takesValue(option)) {
            WindowOptions::take(request, option, value);
            continue;
        }
        if (!allowWindowOptions && request.cost.take(option, value))
            continue;
        if (!applyValueOption(request, option, value))
            throw InputError("Unknown option '" + quotedText(option) +
                             "'. See --help for the options.");
        request.anySetting = true;
        request.given.insert(option);
    }
    return request;
}

} // namespace headlens
