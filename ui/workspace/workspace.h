// Workspace: the live settings and texts of the window; every control edits it, the runner reads
// it.
#pragma once

#include "workspace/workspacestate.h"

#include <QObject>

namespace headlens {

/// Holds the WorkspaceState and says when it changed. Setters that do not change anything stay
/// silent, so controls that echo a value back cannot start a loop.
class Workspace : public QObject
{
    Q_OBJECT
public:
    explicit Workspace(QObject *parent = nullptr);

    const WorkspaceState &state() const { return m_state; }
    void setState(const WorkspaceState &state);
    /// Fewer heads in the built-in layer drop the ablations of the heads gone.
    void setConfig(const AttentionConfig &config);
    void setText(const QString &text);
    void setKvText(const QString &text);
    void setCrossAttention(bool on);
    void setBatchIndex(int index);
    void setWeightsPath(const QString &path);
    /// Shows layer `layer` of the model at `path` (empty: the built-in layer). Another model
    /// drops the ablations: they name heads of the one before.
    void setModel(const QString &path, int layer);
    void setModelLayer(int layer) { setModel(m_state.modelPath, layer); }
    /// The heads ablated in every run (WorkspaceState::ablations).
    void setAblations(const std::vector<HeadIntervention> &ablations);
    /// Whether the second text box is sentence B of a pair (the shown model's run readsPairs).
    void setKvTextIsSentenceB(bool on);

signals:
    /// Something that changes the trace changed: recompute.
    void inputChanged();
    /// Only the sequence the views show changed: redraw, no recompute.
    void batchIndexChanged(int index);
    /// The second text box changed meaning (sentence B or cross-attention keys/values).
    void kvTextIsSentenceBChanged(bool on);

private:
    WorkspaceState m_state;
};

} // namespace headlens
