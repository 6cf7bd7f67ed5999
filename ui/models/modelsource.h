// ModelSource: which layer the views show: the built-in layer, a GPT-2 layer or a toy model's.
#pragma once

#include <memory>
#include <string>

namespace headlens {

class Gpt2Model;
struct TrainedModel;

/// Plain C++ so a TraceRequest can carry it to the worker. A model is named by its path (a
/// GPT-2 folder or a toy .npz, opened by the worker) or handed over already in memory (a model
/// the Train view just trained, which has no file yet).
struct ModelSource
{
    enum class Kind
    {
        BuiltIn,
        Gpt2,
        Toy
    };

    Kind kind = Kind::BuiltIn;
    std::string path;                        ///< folder or .npz; empty for an in-memory model
    std::shared_ptr<const Gpt2Model> gpt2;   ///< set once opened
    std::shared_ptr<const TrainedModel> toy; ///< set once opened
    int layer = 0;                           ///< 0-based layer the heads and pipeline views show

    bool isModel() const { return kind != Kind::BuiltIn; }
    /// GPT-2 when `path` is a folder, toy model otherwise (a .npz with headlens_toy_settings).
    static Kind kindOfPath(const std::string &path);
};

} // namespace headlens
