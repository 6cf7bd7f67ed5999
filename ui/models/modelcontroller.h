// ModelController: which model the views show (built-in layer, a file's or one in memory).
#pragma once

#include "model/modelrun.h"
#include "models/modellabelcache.h"

#include <QObject>

#include <memory>

namespace headlens {

class OpenedModel;
struct TrainedModel;
class Workspace;

/// The workspace names a model by path (saved, restored); a model trained in this session is
/// held here until it has a file. The runner opens and runs models; this class only chooses.
class ModelController : public QObject
{
    Q_OBJECT
public:
    explicit ModelController(Workspace *workspace, QObject *parent = nullptr);

    /// What to pass to TraceRunner::submit: the in-memory toy model while it is the choice,
    /// else the built-in source (the runner then reads the workspace's model path).
    ModelSource source() const;
    /// The latest run of the active model (null with the built-in layer).
    const std::shared_ptr<const ModelRun> &run() const { return m_run; }
    /// True while a model (not the built-in layer) is chosen.
    bool isActive() const;
    /// The last model chosen, for switching back to it after the built-in layer.
    bool hasModel() const;
    QString modelName() const;

public slots:
    /// Makes `model` (e.g. just trained in the Train view) the active source, layer 0.
    void openToyModel(std::shared_ptr<const headlens::TrainedModel> model);
    /// Makes the checkpoint folder `path` (e.g. a language model just saved by the Train
    /// view) the model the views show, layer 0, in place of a toy model in memory.
    void openFolder(const QString &path);
    void useBuiltIn();
    /// Back to the last model after the built-in layer.
    void useModel();
    void setLayer(int layer);
    /// Shows `layer` in the heads and pipeline views with `head` pinned.
    void openHead(int layer, int head);
    /// From TraceRunner::modelRunReady.
    void setRun(std::shared_ptr<const headlens::ModelRun> run);

signals:
    /// The in-memory model came or went: the views must be recomputed.
    void sourceChanged();
    void runChanged(std::shared_ptr<const headlens::ModelRun> run);
    void headOpened(int layer, int head);

private:
    Workspace *m_workspace;
    std::shared_ptr<const OpenedModel> m_memory; ///< a model without a file (Train view)
    bool m_memoryChosen = false;                 ///< m_memory is the active source
    QString m_lastPath;                          ///< last model path, for useModel()
    std::shared_ptr<const ModelRun> m_run;
    mutable ModelLabelCache m_labels; ///< modelName() is asked on every edit of the text
};

} // namespace headlens
