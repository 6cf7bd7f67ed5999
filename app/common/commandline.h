// CommandLine: the options `headlens-cli` and `headlens` share, parsed without Qt.
#pragma once

#include "attention/attentionconfig.h"
#include "model/patchingmap.h"
#include "session/comparisonrequest.h"
#include "session/rankingrequest.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace headlens {

/// The training playground's options (--train and its companions); 0 means the task's default.
struct TrainOptions
{
    std::string task;           ///< --train previous|reverse|sort|induction; empty = no training
    int layers = 0;             ///< --layers
    int steps = 2000;           ///< --steps
    int sequenceLength = 0;     ///< --seq-len
    int vocabulary = 0;         ///< --vocab
    int batchSize = 0;          ///< --batch-size
    float learningRate = 0.0f;  ///< --lr
    bool layerNorm = false;     ///< --layer-norm
    int reportEvery = 100;      ///< --report-every: steps between printed lines
    double untilAccuracy = 0.0; ///< --until-accuracy: stop once held-out accuracy reaches it
    std::string savePath;       ///< --save FILE.npz
};

/// --cost and its companions: the cost of the layer's settings, no trace computed.
struct CostOptions
{
    bool requested = false;    ///< --cost
    int layers = 1;            ///< --cost-layers L
    int tokens = 0;            ///< --cost-tokens N; 0 = the first text's tokens (or 1)
    std::string dtype = "f32"; ///< --cost-dtype f32|bf16|f16|int8: bytes per cached value
};

/// Interventions and rankings of heads (issue 15); heads numbered from 1 as --stats prints them.
struct InterventionOptions
{
    /// --ablate L.H[,L.H...]: (layer from 0 as --layer, head from 1), in the order given
    std::vector<std::pair<int, int>> ablate;
    std::string ablateMode = "zero"; ///< --ablate-mode zero|mean
    bool importance = false;         ///< --importance: the layers x heads loss-increase table
    std::string patchFrom;           ///< --patch-from TEXT: the clean text patched from
    std::string answer;              ///< --answer A: the metric's answer token
    std::string wrong;               ///< --wrong B: the token it is compared with
    /// --patch-direction restore|break: clean into corrupted (default) or the reverse
    PatchDirection patchDirection = PatchDirection::CleanIntoCorrupt;
    /// --patch-positions L.H: the head patched one position at a time (layer from 0, head from
    /// 1); -1, -1 = the map's strongest
    std::pair<int, int> patchPositions{-1, -1};
    std::string corpusPath; ///< --corpus FILE: every head over a text file's lines
    /// --compare-text TEXT or --compare-change seed|kv-heads|rope|causal|no-ablations: B beside
    /// the text and settings (A)
    ComparisonRequest compare;

    /// The patching map these options ask for: Kind::Patching with --patch-from, its answers,
    /// direction and --patch-positions head (0-based); Kind::None without --patch-from.
    RankingRequest patching() const;
};

/// What the command line asked for. Settings given explicitly are remembered so that values
/// read from a weights file (its d_model) can fill in only what the person left out.
struct CommandLineRequest
{
    AttentionConfig config;
    bool dModelGiven = false;

    std::vector<std::string> texts;   ///< one sequence each (--text, or lines of --text-file)
    std::vector<std::string> kvTexts; ///< cross-attention (--kv-text)
    std::string inputPath;            ///< --input X.npy
    std::string kvInputPath;          ///< --kv-input Y.npy
    std::string maskPath;             ///< --key-padding-mask M.npy
    std::string weightsPath;          ///< --weights W.npz
    std::string modelDir;             ///< --model DIR: a GPT-2 checkpoint folder
    int modelLayer = 0;               ///< --layer L: the GPT-2 layer traced step by step
    std::vector<int> tokenIds;        ///< --token-ids 1,2,3: GPT-2 ids instead of --text
    std::string textPair;             ///< --text-pair: an encoder's sentence B
    bool fillMask = false;            ///< --fill-mask: each mask's top-5 fillers (encoders)
    std::string workspacePath;        ///< a positional .headlens file (the window only)

    TrainOptions train;            ///< --train TASK and the options that go with it
    CostOptions cost;              ///< --cost (headlens-cli only)
    InterventionOptions intervene; ///< --ablate, --importance, --patch-from and companions

    bool printShapes = false;
    bool printStats = false;
    bool compare = false;
    bool json = false;
    std::string exportDir;
    std::vector<std::string> figureFormats; ///< --figures png,pdf,svg
    /// --figure heads,head:N,step:N|step:ID,model (N from 1); empty: heads and every head
    std::vector<std::string> figureContents;
    double figureWidthInches = 0.0;  ///< --figure-size WxH{cm,mm,in}; 0: each figure's default
    double figureHeightInches = 0.0; ///< (both set or both 0)
    int figureDpi = 300;             ///< --dpi: pixels per inch of PNG figures

    // The window's own options.
    std::string screenshotPath;
    std::string handoutPath; ///< --handout: print the pipeline handout PDF and exit
    int screenshotWidth = 1400;
    int screenshotHeight = 900;
    std::string view = "heads";
    int step = 0;      ///< --step N with --view pipeline: 1-based; 0 = the first step
    std::string theme; ///< --theme light|dark; empty: the saved choice (light for --screenshot)
    std::string page = "a4";   ///< --page a4|letter: the handout's paper
    bool landscape = false;    ///< --landscape: the handout's pages on their side
    bool presentation = false; ///< --presentation: View > Presentation mode (large fonts)

    bool help = false;
    bool version = false;
    bool listModels = false;     ///< --list-models: the Hugging Face cache's models, then exit
    bool anySetting = false;     ///< true when an option changed a setting or a text
    std::set<std::string> given; ///< the setting options that were given ("--heads", ...)
};

/// Parses argv into a request. Throws InputError with a message naming the option and what it
/// expects ("--heads expects a whole number, got 'eight'").
class CommandLine
{
public:
    /// `allowWindowOptions` accepts --screenshot, --handout, --size, --view, --step, --theme,
    /// --page, --landscape, --presentation and a workspace file (the window's extras).
    static CommandLineRequest parse(const std::vector<std::string> &arguments,
                                    bool allowWindowOptions);
    /// The option list for --help.
    static std::string helpText(const std::string &program, bool windowOptions);
};

} // namespace headlens
