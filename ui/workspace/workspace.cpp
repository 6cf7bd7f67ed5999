// Workspace: setters that only speak when a value really changed.
#include "workspace/workspace.h"

#include <algorithm>

namespace headlens {

Workspace::Workspace(QObject *parent) : QObject(parent) {}

void Workspace::setState(const WorkspaceState &incoming)
{
    // A file or an example does not know which model ran last; the flag stays until the next
    // run says otherwise.
    WorkspaceState state = incoming;
    state.kvTextIsSentenceB = m_state.kvTextIsSentenceB;
    if (state == m_state)
        return;
    const bool batchOnly = [&] {
        WorkspaceState copy = state;
        copy.batchIndex = m_state.batchIndex;
        return copy == m_state;
    }();
    m_state = state;
    if (!batchOnly)
        emit inputChanged();
    emit batchIndexChanged(m_state.batchIndex);
}

void Workspace::setConfig(const AttentionConfig &config)
{
    if (config == m_state.config)
        return;
    m_state.config = config;
    if (m_state.modelPath.isEmpty()) {
        auto &items = m_state.ablations;
        items.erase(std::remove_if(items.begin(), items.end(),
                                   [&config](const HeadIntervention &item) {
                                       return item.head >= config.heads;
                                   }),
                    items.end());
    }
    emit inputChanged();
}

void Workspace::setText(const QString &text)
{
    if (text == m_state.text)
        return;
    m_state.text = text;
    emit inputChanged();
}

void Workspace::setKvText(const QString &text)
{
    if (text == m_state.kvText)
        return;
    m_state.kvText = text;
    if (m_state.crossAttention || m_state.kvTextIsSentenceB)
        emit inputChanged();
}

void Workspace::setCrossAttention(bool on)
{
    if (on == m_state.crossAttention)
        return;
    m_state.crossAttention = on;
    emit inputChanged();
}

void Workspace::setKvTextIsSentenceB(bool on)
{
    if (on == m_state.kvTextIsSentenceB)
        return;
    m_state.kvTextIsSentenceB = on;
    emit kvTextIsSentenceBChanged(on);
    // Turning it on adds sentence B to the job: the run just shown read the text alone. Off, a
    // model that does not read pairs ignores the second text anyway, and the built-in layer
    // never looks at the flag: nothing to recompute.
    if (on && !m_state.kvText.isEmpty() && !m_state.crossAttention)
        emit inputChanged();
}

void Workspace::setBatchIndex(int index)
{
    if (index == m_state.batchIndex)
        return;
    m_state.batchIndex = index;
    emit batchIndexChanged(index);
}

void Workspace::setWeightsPath(const QString &path)
{
    if (path == m_state.weightsPath)
        return;
    m_state.weightsPath = path;
    emit inputChanged();
}

void Workspace::setModel(const QString &path, int layer)
{
    if (path == m_state.modelPath && layer == m_state.modelLayer)
        return;
    if (path != m_state.modelPath)
        m_state.ablations.clear();
    m_state.modelPath = path;
    m_state.modelLayer = std::max(layer, 0);
    emit inputChanged();
}

void Workspace::setAblations(const std::vector<HeadIntervention> &ablations)
{
    if (ablations == m_state.ablations)
        return;
    m_state.ablations = ablations;
    emit inputChanged();
}

} // namespace headlens
