// CommandLine: option parsing and validation with messages that say what is expected.
#include "commandline.h"

#include "printoptions.h"
#include "text/tokenizer.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <tuple>

namespace headlens {

namespace {

long long parseInteger(const std::string &option, const std::string &value)
{
    char *end = nullptr;
    errno = 0;
    const long long number = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || errno == ERANGE)
        throw InputError(option + " expects a whole number, got '" + quotedText(value) + "'.");
    return number;
}

int parseSize(const std::string &option, const std::string &value)
{
    const long long number = parseInteger(option, value);
    if (number < 1 || number > 65536)
        throw InputError(option + " must be between 1 and 65536, got " + value + ".");
    return static_cast<int>(number);
}

float parseFloat(const std::string &option, const std::string &value)
{
    char *end = nullptr;
    const float number = std::strtof(value.c_str(), &end);
    if (value.empty() || *end != '\0')
        throw InputError(option + " expects a number, got '" + quotedText(value) + "'.");
    return number;
}

std::string readTextFile(const std::string &path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw InputError("Cannot read the text file " + path +
                         ": check that it exists and is readable.");
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

std::vector<std::string> splitComma(const std::string &value)
{
    std::vector<std::string> parts;
    std::stringstream stream(value);
    std::string part;
    while (std::getline(stream, part, ','))
        if (!part.empty())
            parts.push_back(part);
    return parts;
}

/// A layer number or token id: a whole number >= 0.
int parseIndex(const std::string &option, const std::string &value)
{
    const long long number = parseInteger(option, value);
    if (number < 0 || number > 1'000'000'000)
        throw InputError(option + " expects whole numbers from 0, got " + value + ".");
    return static_cast<int>(number);
}

void parseScale(AttentionConfig &config, const std::string &value)
{
    if (auto mode = scaleModeFromString(value); mode && *mode != ScaleMode::Temperature) {
        config.scale = *mode;
        return;
    }
    config.scale = ScaleMode::Temperature;
    config.temperature = parseFloat("--scale", value);
    if (!(config.temperature > 0.0f))
        throw InputError("--scale expects sqrt, none or a positive temperature, got '" +
                         quotedText(value) + "'.");
}

void parseScreenshotSize(CommandLineRequest &request, const std::string &value)
{
    const size_t x = value.find('x');
    if (x == std::string::npos)
        throw InputError("--size expects WIDTHxHEIGHT, e.g. 1400x900, got '" + quotedText(value) +
                         "'.");
    request.screenshotWidth = parseSize("--size", value.substr(0, x));
    request.screenshotHeight = parseSize("--size", value.substr(x + 1));
}

/// The training playground's options that take a value; false when `option` is not one.
bool applyTrainOption(TrainOptions &t, const std::string &option, const std::string &value)
{
    if (option == "--train")
        t.task = value;
    else if (option == "--layers")
        t.layers = parseSize(option, value);
    else if (option == "--steps")
        t.steps = parseSize(option, value);
    else if (option == "--seq-len")
        t.sequenceLength = parseSize(option, value);
    else if (option == "--vocab")
        t.vocabulary = parseSize(option, value);
    else if (option == "--batch-size")
        t.batchSize = parseSize(option, value);
    else if (option == "--lr")
        t.learningRate = parseFloat(option, value);
    else if (option == "--report-every")
        t.reportEvery = parseSize(option, value);
    else if (option == "--until-accuracy")
        t.untilAccuracy = parseFloat(option, value);
    else if (option == "--save")
        t.savePath = value;
    else
        return false;
    return true;
}

/// --cost's companions (headlens-cli only); false when `option` is not one of them.
bool applyCostOption(CostOptions &cost, const std::string &option, const std::string &value)
{
    if (option == "--cost-layers")
        cost.layers = parseSize(option, value);
    else if (option == "--cost-tokens")
        cost.tokens = parseIndex(option, value);
    else if (option == "--cost-dtype") {
        if (value != "f32" && value != "bf16" && value != "f16" && value != "int8")
            throw InputError("--cost-dtype expects f32, bf16, f16 or int8, got '" +
                             quotedText(value) + "'.");
        cost.dtype = value;
    } else
        return false;
    return true;
}

/// "L.H" of --ablate or --patch-positions: layer from 0, head from 1.
std::pair<int, int> parseLayerHead(const std::string &option, const std::string &value)
{
    const size_t dot = value.find('.');
    const auto bad = [&](const std::string &why) {
        return InputError(option +
                          (option == "--ablate" ? " expects LAYER.HEAD pairs separated by commas"
                                                : " expects one LAYER.HEAD") +
                          ", layers from 0 (as --layer) and heads from 1 (as --stats prints "
                          "them), e.g. " +
                          (option == "--ablate" ? "0.3,1.1" : "1.2") + "; got '" +
                          quotedText(value) + "'" + why + ".");
    };
    if (dot == std::string::npos || value.find('.', dot + 1) != std::string::npos)
        throw bad("");
    const std::string layer = value.substr(0, dot), head = value.substr(dot + 1);
    char *end = nullptr;
    const long l = std::strtol(layer.c_str(), &end, 10);
    if (layer.empty() || *end != '\0' || l < 0 || l > 100000)
        throw bad("");
    const long h = std::strtol(head.c_str(), &end, 10);
    if (head.empty() || *end != '\0' || h > 100000)
        throw bad("");
    if (h < 1)
        throw bad(": heads are numbered from 1");
    return {int(l), int(h)};
}

/// --ablate and the ranking options; false when `option` is not one of them.
bool applyInterventionOption(InterventionOptions &v, const std::string &option,
                             const std::string &value)
{
    if (option == "--ablate") {
        const std::vector<std::string> parts = splitComma(value);
        if (parts.empty())
            throw InputError("--ablate expects LAYER.HEAD pairs such as 0.3, got nothing.");
        for (const std::string &part : parts)
            v.ablate.push_back(parseLayerHead(option, part));
    } else if (option == "--ablate-mode") {
        if (value != "zero" && value != "mean")
            throw InputError("--ablate-mode expects zero or mean, got '" + quotedText(value) +
                             "'.");
        v.ablateMode = value;
    } else if (option == "--patch-direction") {
        if (value != "restore" && value != "break")
            throw InputError("--patch-direction expects restore (the clean text's head outputs "
                             "into the corrupted run) or break (the corrupted text's into the "
                             "clean run), got '" +
                             quotedText(value) + "'.");
        v.patchDirection =
            value == "break" ? PatchDirection::CorruptIntoClean : PatchDirection::CleanIntoCorrupt;
    } else if (option == "--patch-positions")
        v.patchPositions = parseLayerHead(option, value);
    else if (option == "--patch-from")
        v.patchFrom = value;
    else if (option == "--answer")
        v.answer = value;
    else if (option == "--wrong")
        v.wrong = value;
    else if (option == "--corpus")
        v.corpusPath = value;
    else if (option == "--compare-text")
        v.compare = {ComparedChange::Text, value};
    else if (option == "--compare-change") {
        const auto change = comparedChangeFromString(value);
        if (!change || *change == ComparedChange::Text)
            throw InputError("--compare-change expects one of seed|kv-heads|rope|causal|"
                             "no-ablations, got '" +
                             quotedText(value) + "' (another text is --compare-text TEXT).");
        v.compare = {*change, {}};
    } else
        return false;
    return true;
}

/// The settings of attention's newer variants: K/V heads, positions inside attention, window.
bool applyAttentionOption(AttentionConfig &c, const std::string &option, const std::string &value)
{
    if (option == "--kv-heads")
        c.kvHeads = parseSize(option, value);
    else if (option == "--attention-positions") {
        const auto kind = attentionPositionsFromString(value);
        if (!kind)
            throw InputError("--attention-positions expects none, rope, rope-interleaved or "
                             "alibi, got '" +
                             quotedText(value) + "'.");
        c.attentionPositions = *kind;
    } else if (option == "--rope-theta")
        c.ropeTheta = parseFloat(option, value);
    else if (option == "--rope-offset")
        c.ropePositionOffset = parseIndex(option, value);
    else if (option == "--window")
        c.window = parseIndex(option, value);
    else
        return false;
    return true;
}

/// Options that take a value. Returns false when `option` is not one of them.
bool applyValueOption(CommandLineRequest &r, const std::string &option, const std::string &value)
{
    AttentionConfig &c = r.config;
    if (option == "--text")
        r.texts.push_back(value);
    else if (option == "--text-file")
        for (const std::string &line : Tokenizer::splitLines(readTextFile(value)))
            r.texts.push_back(line);
    else if (option == "--kv-text")
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
        r.modelLayer = parseIndex(option, value);
    else if (option == "--token-ids")
        for (const std::string &id : splitComma(value))
            r.tokenIds.push_back(parseIndex(option, id));
    else if (option == "--d-model") {
        c.dModel = parseSize(option, value);
        r.dModelGiven = true;
    } else if (option == "--d-in")
        c.dIn = parseSize(option, value);
    else if (option == "--heads")
        c.heads = parseSize(option, value);
    else if (option == "--d-k") {
        c.dK = parseSize(option, value);
        c.tied = false;
    } else if (option == "--d-v") {
        c.dV = parseSize(option, value);
        c.tied = false;
    } else if (option == "--seed")
        c.seed = static_cast<uint64_t>(parseInteger(option, value));
    else if (option == "--scale")
        parseScale(c, value);
    else if (option == "--dropout") {
        c.dropout = parseFloat(option, value);
        c.training = c.dropout > 0.0f; // dropout only acts in training mode, as in PyTorch
    } else if (option == "--positional") {
        const auto kind = positionalFromString(value);
        if (!kind)
            throw InputError("--positional expects sinusoidal, random or none, got '" +
                             quotedText(value) + "'.");
        c.positional = *kind;
    } else if (option == "--tokenizer") {
        const auto kind = tokenizerFromString(value);
        if (!kind)
            throw InputError("--tokenizer expects words or chars, got '" + quotedText(value) +
                             "'.");
        c.tokenizer = *kind;
    } else if (option == "--memory-budget")
        c.memoryBudgetBytes = parseInteger(option, value) << 20;
    else if (applyAttentionOption(c, option, value))
        return true;
    else if (applyTrainOption(r.train, option, value))
        return true;
    else if (applyInterventionOption(r.intervene, option, value))
        return true;
    else if (option == "--export-dir")
        r.exportDir = value;
    else if (option == "--figures")
        r.figureFormats = splitComma(value);
    else if (option == "--figure")
        r.figureContents = PrintOptions::figureContents(value);
    else if (option == "--figure-size")
        std::tie(r.figureWidthInches, r.figureHeightInches) = PrintOptions::figureSize(value);
    else if (option == "--dpi")
        r.figureDpi = PrintOptions::dpi(parseInteger(option, value));
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

bool isWindowOption(const std::string &option)
{
    return option == "--screenshot" || option == "--handout" || option == "--size" ||
           option == "--view" || option == "--step" || option == "--theme" || option == "--page";
}

} // namespace

RankingRequest InterventionOptions::patching() const
{
    RankingRequest request;
    if (patchFrom.empty())
        return request;
    request.kind = RankingRequest::Kind::Patching;
    request.cleanText = patchFrom;
    request.answer = answer;
    request.wrong = wrong;
    request.direction = patchDirection;
    if (patchPositions.first >= 0) { // heads from 1 on the command line
        request.positionsLayer = patchPositions.first;
        request.positionsHead = patchPositions.second - 1;
    }
    return request;
}

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
        if (allowWindowOptions && option == "--landscape") {
            request.landscape = true;
            continue;
        }
        if (allowWindowOptions && option == "--presentation") {
            request.presentation = true;
            continue;
        }
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
        if (allowWindowOptions && isWindowOption(option)) {
            if (option == "--screenshot")
                request.screenshotPath = value;
            else if (option == "--handout")
                request.handoutPath = value;
            else if (option == "--size")
                parseScreenshotSize(request, value);
            else if (option == "--step")
                request.step = parseSize("--step", value);
            else if (option == "--theme" && value != "light" && value != "dark")
                throw InputError("--theme expects light or dark, got '" + quotedText(value) + "'.");
            else if (option == "--theme")
                request.theme = value;
            else if (option == "--page")
                request.page = PrintOptions::page(value);
            else
                request.view = value;
            continue;
        }
        if (!allowWindowOptions && applyCostOption(request.cost, option, value))
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
