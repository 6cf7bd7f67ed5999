// openedRun: a model opened from a folder or file, and its run of a text, as the window has it.
#pragma once

#include "model/modelopener.h"
#include "model/openedmodel.h"

#include <QString>

#include <memory>
#include <string>

namespace headlens::test {

/// The run of `text` by the model at `path`, its source filled in as the window's worker fills
/// it (the views read the model through run->source.model).
inline std::shared_ptr<ModelRun> openedRun(const QString &path, const std::string &text)
{
    std::shared_ptr<const OpenedModel> model = ModelOpener::open(path.toStdString());
    std::shared_ptr<ModelRun> run = model->run(model->encode(text), 0, {});
    run->source.model = model;
    run->source.path = path.toStdString();
    return run;
}

} // namespace headlens::test
