// OpenedModel: a model in memory behind one interface, whatever its family (GPT-2, toy model).
#pragma once

#include "model/modelinput.h"
#include "model/modelrun.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace headlens {

/// What orchestration (core/session) and the front ends need from a model. Made only by
/// ModelOpener, the one place that tells families apart. Immutable: run() may be called from
/// any thread, concurrently.
class OpenedModel
{
public:
    virtual ~OpenedModel() = default;

    /// The family as people call it, for messages: "GPT-2", "toy model".
    virtual std::string family() const = 0;
    /// The family and the file or folder: "GPT-2 tiny", "toy model toy.npz".
    virtual std::string name() const = 0;
    virtual int layers() const = 0;
    /// The token ids of `text`. Throws InputError when the model cannot read it.
    virtual std::vector<int> encode(const std::string &text) const = 0;
    /// Encoders read a pair of texts: sentence A and sentence B (BERT's [CLS] A [SEP] B [SEP]).
    virtual bool readsPairs() const { return false; }
    /// The tokens of `text` and `pair` with each one's segment. Precondition: readsPairs().
    virtual ModelInput encodePair(const std::string &text, const std::string &pair) const
    {
        (void)pair;
        return encode(text);
    }
    /// One pass over `input`, tracing `layer`. Precondition: 0 <= layer < layers(). Throws
    /// InputError (ids the model cannot read) or Cancelled (when `progress` returned false).
    /// The run's `source` is left for the caller to fill in.
    virtual std::shared_ptr<ModelRun> run(const ModelInput &input, int layer,
                                          const std::function<bool(double)> &progress) const = 0;

    /// `previous` (a run of this model) with layer `layer` traced instead: what
    /// run({previous.tokenIds, previous.segments}, layer, progress) gives. The base runs the model
    /// again; a family whose runs keep each layer's input (ModelRun::layerInputs) traces only that
    /// layer.
    virtual std::shared_ptr<ModelRun> retrace(const ModelRun &previous, int layer,
                                              const std::function<bool(double)> &progress) const
    {
        return run({previous.tokenIds, previous.segments}, layer, progress);
    }

protected:
    /// The lines of ModelRun::settingsSummary: the attention's sizes, its positions and window
    /// when it has them (RoPE theta and scaling, q/k norms), then layers, vocabulary, context.
    static std::string summary(const AttentionConfig &config, int layers, int vocabulary,
                               int context);
};

} // namespace headlens
