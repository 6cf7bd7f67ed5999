// ModelSource: which model a job reads and which of its layers the views show, family-neutral.
#pragma once

#include <memory>
#include <string>

namespace headlens {

class OpenedModel;

/// Plain C++ so a TraceJob can carry it to a worker. A model is named by its path (opened by
/// ModelOpener where the job runs) or handed over already open (a toy model the Train view
/// just trained, which has no file yet). Neither set: the built-in layer.
struct ModelSource
{
    std::string path;                         ///< what ModelOpener::open reads; may be empty
    std::shared_ptr<const OpenedModel> model; ///< set once opened (ModelCache::resolve)
    int layer = 0;                            ///< 0-based layer the heads and pipeline views show

    bool isModel() const { return !path.empty() || model != nullptr; }
};

} // namespace headlens
