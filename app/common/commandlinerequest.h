// CommandLineRequest: everything one command line asked for, before any file is read.
#pragma once

#include "attention/attentionconfig.h"
#include "costoptions.h"
#include "interventionoptions.h"
#include "session/lensrequest.h"
#include "trainoptions.h"

#include <set>
#include <string>
#include <vector>

namespace headlens {

/// What the command line asked for. Settings given explicitly are remembered so that values
/// read from a weights file (its d_model) can fill in only what the person left out.
struct CommandLineRequest
{
    AttentionConfig config;
    bool dModelGiven = false;

    std::vector<std::string> texts; ///< one sequence each (--text, or lines of --text-file)
    /// --text-file's whole contents: with --model the file is one text, newlines and all (a
    /// long document, which no command-line argument could hold).
    std::string textFile;
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
    LensRequest lens;              ///< --logit-lens, --dla TOKEN[,WRONG], --dla-position N

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
    int step = 0; ///< --step N with --view pipeline: 1-based (0 = the first); with train-lm: the
                  ///< training step to picture
    std::string theme; ///< --theme light|dark; empty: the saved choice (light for --screenshot)
    std::string page = "a4";   ///< --page a4|letter: the handout's paper
    bool landscape = false;    ///< --landscape: the handout's pages on their side
    bool presentation = false; ///< --presentation: View > Presentation mode (large fonts)
    /// --score: the Heads page's "Score heads against" (previous-token, induction, antecedent,
    /// subject, bracket); empty: none.
    std::string score;
    bool story = false; ///< --story: the Heads page's Story button, once the model has run

    bool help = false;
    bool version = false;
    bool listModels = false;     ///< --list-models: the Hugging Face cache's models, then exit
    bool anySetting = false;     ///< true when an option changed a setting or a text
    std::set<std::string> given; ///< the setting options that were given ("--heads", ...)
};

} // namespace headlens
