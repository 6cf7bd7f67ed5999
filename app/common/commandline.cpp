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
    else if (applyTrainOption(r.train, option, value))
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
    else if (option == "--compare")
        r.compare = true;
    else if (option == "--json")
        r.json = true;
    else if (option == "--help" || option == "-h")
        r.help = true;
    else if (option == "--version")
        r.version = true;
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
        if (applyFlag(request, option)) {
            request.anySetting = true;
            request.given.insert(option);
            continue;
        }
        if (allowWindowOptions && option == "--landscape") {
            request.landscape = true;
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
        if (!applyValueOption(request, option, value))
            throw InputError("Unknown option '" + quotedText(option) +
                             "'. See --help for the options.");
        request.anySetting = true;
        request.given.insert(option);
    }
    return request;
}

std::string CommandLine::helpText(const std::string &program, bool windowOptions)
{
    std::string text =
        "Usage: " + program + (windowOptions ? " [file.headlens] [options]\n" : " [options]\n");
    text += R"(
Input (one of):
  --text TEXT               a sentence; repeat for a batch (one sequence each)
  --text-file FILE          one sequence per line
  --input X.npy             token vectors instead of text, (n, d) or (b, n, d)
Cross-attention:
  --kv-text TEXT            keys and values from another text (once, or once per sequence)
  --kv-input Y.npy          keys and values from vectors, (b, n_kv, d)
  --key-padding-mask M.npy  (b, n_kv), nonzero where a key is ignored (PyTorch convention)
Layer:
  --weights W.npz           nn.MultiheadAttention state_dict saved with numpy.savez
  --d-model N               model width (default 512; read from --weights if not given)
  --d-in N                  input width when it differs from d_model
  --heads N                 number of heads h (default 8)
  --d-k N, --d-v N          per-head widths, untied from d_model / h
  --seed N                  seed for embeddings, weights and dropout (default 0)
  --causal                  mask later tokens
  --scale sqrt|none|T       divide scores by sqrt(d_k) (default), by nothing, or by T
  --no-bias                 no projection biases
  --dropout P               dropout on the attention weights (training mode)
  --positional sinusoidal|random|none
  --tokenizer words|chars
  --memory-budget MIB       refuse traces larger than this (default 2048)
Models (a GPT-2 checkpoint folder or a toy model .npz from --train):
  --model DIR|TOY.npz       GPT-2: config.json, model.safetensors, vocab.json, merges.txt; runs --text
                            through every layer, prints the top-5 next tokens; --export-dir also
                            writes all_weights.npy (n_layer, n_head, n, n) and token_ids.npy
  --layer L                 the layer whose every step is traced and exported (default 0)
  --token-ids 1,2,3         the model's token ids instead of --text
Output:
  --print-shapes            the step table: shapes before -> after, formula, PyTorch line
  --stats                   per-head statistics
  --compare                 the four implementations and their largest difference
  --json                    the trace summary as JSON on stdout
  --export-dir DIR          one .npy per trace tensor plus trace.json
)";
    if (windowOptions)
        text += R"(Window:
  --screenshot OUT.png      render the window to a PNG and exit
  --handout OUT.pdf         print the pipeline handout (title page + a page per step) and exit
  --page a4|letter          the handout's paper (default a4)
  --landscape               the handout's pages on their side (default portrait)
  --size WxH                window size for --screenshot (default 1400x900)
  --view heads|head:N|pipeline|train
                            the heads grid, head N large beside it, the pipeline, or the
                            Train view (with --train TASK --steps N: after N steps)
  --view model              with --model DIR|TOY.npz: every layer and head, the statistics
  --step N                  with --view pipeline: show step N (1 = the first)
  --theme light|dark        the window's theme (View > Dark); --screenshot is light without it
)";
    else
        text +=
            R"(  --figures png,pdf,svg     with --export-dir: figures ready for a paper (axis titles, square
                            cells, the colour bar), by default the heads grid and each head
  --figure LIST             what to draw, comma-separated: heads (the grid), head:N (one head,
                            N from 1), step:N or step:NAME (a pipeline step as on the handout,
                            e.g. step:6 or step:softmax), model (every layer x head of --model)
  --figure-size WxH         the figures' size on paper in cm, mm or in, e.g. 8.5x6cm or
                            3.3x2.4in (default: 16x10cm for the grid, 10x9cm for a head)
  --dpi N                   PNG resolution, 30 to 2400 dots per inch (default 300); the PNG
                            is (size in inches x N) pixels and says its DPI
Training playground (a tiny attention-only transformer on a toy task):
  --train TASK              previous, reverse, sort or induction; prints loss and accuracy
  --layers L, --heads H     1-2 layers, 1-8 heads (defaults depend on the task)
  --d-model N               16-128;  --seq-len N  up to 32;  --vocab N  up to 64
  --steps N                 Adam steps (default 2000);  --lr R;  --batch-size B;  --seed S
  --layer-norm              pre-LayerNorm before each attention block and the unembedding
  --report-every N          steps between printed lines (default 100)
  --until-accuracy A        stop once the held-out accuracy reaches A (e.g. 0.99)
  --save FILE.npz           save the trained model (open it later in the window)
)";
    text += "  --help, --version\n";
    return text;
}

} // namespace headlens
