// ModelOpener: the one place that tells which family a path is and opens it as an OpenedModel.
#pragma once

#include "model/openedmodel.h"

#include <memory>
#include <optional>
#include <string>

namespace headlens {

struct TrainedModel;

/// A folder is a checkpoint of a family FamilyTable knows (its config.json's model_type says
/// which: GPT-2 has config.json, model.safetensors, vocab.json, merges.txt); a
/// file is a toy model when its .npz holds headlens_toy_settings (ToyModelFile). Nothing
/// outside core/model decides this: the window and headlens-cli ask here.
class ModelOpener
{
public:
    /// Whether `path` is meant as a model rather than as weights or a workspace: any folder, or
    /// a file naming headlens_toy_settings. Cheap: reads at most the file's last MiB.
    static bool namesModel(const std::string &path);
    /// Nothing when `path` looks like a model at a glance, else a sentence saying why not
    /// (a folder without config.json, a file that is not a toy model). Reads no weights.
    static std::optional<std::string> problemWith(const std::string &path);
    /// The family and the file or folder's name for menus: "GPT-2: tiny", "Toy model: t.npz".
    static std::string label(const std::string &path);
    /// Opens `path` (slow for a large checkpoint: call it off the UI thread). Throws InputError
    /// naming the file and what is wrong. A path that does not exist is reported as a missing
    /// toy model when it ends in .npz and as a missing model folder otherwise. `heldBytes`: the
    /// weights of a model kept open beside it (MemoryNeeds::check).
    static std::shared_ptr<const OpenedModel> open(const std::string &path, uint64_t heldBytes = 0);
    /// A toy model trained in this session (no file yet).
    static std::shared_ptr<const OpenedModel>
    fromTrained(std::shared_ptr<const TrainedModel> model);
};

} // namespace headlens
