// TrainOptions: --train TASK and the options that go with it, as the command line gave them.
#pragma once

#include <string>

namespace headlens {

/// The training playground's options (--train, --train-lm and their companions); 0 means the
/// task's (or the preset's) default.
struct TrainOptions
{
    std::string task;            ///< --train previous|reverse|sort|induction; empty = no training
    int layers = 0;              ///< --layers
    int steps = 2000;            ///< --steps
    int sequenceLength = 0;      ///< --seq-len
    int vocabulary = 0;          ///< --vocab
    int batchSize = 0;           ///< --batch-size
    float learningRate = 0.0f;   ///< --lr
    bool layerNorm = false;      ///< --layer-norm
    int reportEvery = 100;       ///< --report-every: steps between printed lines
    double untilAccuracy = 0.0;  ///< --until-accuracy: stop once held-out accuracy reaches it
    std::string savePath;        ///< --save FILE.npz, or the folder of a language model
    bool languageModel = false;  ///< --train-lm: a GPT-2-style model on a text
    std::string preset = "tiny"; ///< --preset tiny|small (--train-lm)
    std::string textPath;        ///< --train-text FILE (--train-lm); empty = the stories
    int sampleTokens = 120;      ///< --sample-tokens: the sample printed at each report
    bool attentionOnly = false;  ///< --attention-only: no MLP (Olsson et al.'s models)
    int bpeVocabulary = 0;       ///< --bpe N: a BPE of N tokens learned from the text; 0 = bytes
    int storyBytes = 0;          ///< --print-stories BYTES: print the generated stories

    /// Sets the field of `option` (one that takes a value) from `value`; false when `option`
    /// is not one of these. Throws InputError when the value does not fit.
    bool take(const std::string &option, const std::string &value);
};

} // namespace headlens
