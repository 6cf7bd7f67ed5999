// Workspace: setters that only speak when a value really changed.
#include "workspace/workspace.h"

#include <algorithm>

namespace headlens {

Workspace::Workspace(QObject *parent) : QObject(parent) {}

void Workspace::setState(const WorkspaceState &state)
{
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
    if (m_state.crossAttention)
        emit inputChanged();
}

void Workspace::setCrossAttention(bool on)
{
    if (on == m_state.crossAttention)
        return;
    m_state.crossAttention = on;
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
    m_state.modelPath = path;
    m_state.modelLayer = std::max(layer, 0);
    emit inputChanged();
}

} // namespace headlens
