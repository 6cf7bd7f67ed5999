// ModelController: model choices go to the Workspace (or, for a model in memory, to source()).
#include "models/modelcontroller.h"

#include "model/modelopener.h"
#include "workspace/workspace.h"

namespace headlens {

ModelController::ModelController(Workspace *workspace, QObject *parent)
    : QObject(parent), m_workspace(workspace)
{}

ModelSource ModelController::source() const
{
    ModelSource source;
    if (m_memory && m_memoryChosen && m_workspace->state().modelPath.isEmpty()) {
        source.model = m_memory;
        source.layer = m_workspace->state().modelLayer;
    }
    return source;
}

bool ModelController::isActive() const
{
    return source().isModel() || !m_workspace->state().modelPath.isEmpty();
}

bool ModelController::hasModel() const
{
    return m_memory || !m_lastPath.isEmpty() || !m_workspace->state().modelPath.isEmpty();
}

QString ModelController::modelName() const
{
    const QString path =
        m_workspace->state().modelPath.isEmpty() ? m_lastPath : m_workspace->state().modelPath;
    if (path.isEmpty())
        return m_memory ? tr("Toy model (this session)") : QString();
    return m_labels.label(path);
}

void ModelController::openToyModel(std::shared_ptr<const TrainedModel> model)
{
    m_memory = ModelOpener::fromTrained(std::move(model));
    m_memoryChosen = true;
    m_lastPath.clear();
    m_workspace->setModel(QString(), 0);
    emit sourceChanged();
}

void ModelController::openFolder(const QString &path)
{
    const bool hadMemory = source().isModel();
    m_memoryChosen = false;
    m_workspace->setModel(path, 0);
    if (hadMemory)
        emit sourceChanged();
}

void ModelController::useBuiltIn()
{
    if (!m_workspace->state().modelPath.isEmpty())
        m_lastPath = m_workspace->state().modelPath;
    const bool hadMemory = source().isModel();
    m_memoryChosen = false;
    m_workspace->setModel(QString(), 0);
    if (hadMemory)
        emit sourceChanged();
}

void ModelController::useModel()
{
    if (!m_lastPath.isEmpty()) {
        m_workspace->setModel(m_lastPath, 0);
    } else if (m_memory && !m_memoryChosen) {
        m_memoryChosen = true;
        emit sourceChanged();
    }
}

void ModelController::setLayer(int layer)
{
    m_workspace->setModelLayer(layer);
}

void ModelController::openHead(int layer, int head)
{
    setLayer(layer);
    emit headOpened(layer, head);
}

void ModelController::setRun(std::shared_ptr<const ModelRun> run)
{
    m_run = std::move(run);
    if (m_run && !m_run->source.path.empty())
        m_lastPath = QString::fromStdString(m_run->source.path);
    emit runChanged(m_run);
}

} // namespace headlens
