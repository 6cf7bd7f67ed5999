// PipelineWiring: the Pipeline tab fed by the runner, RoPE's shift check, its export commands.
#pragma once

#include <QObject>

class QWidget;

namespace headlens {

class MainActions;
class PipelineView;
class PositionShiftRunner;
class TraceRunner;

/// Like ModelWiring it never reaches into the window: the window shows message() and hands out
/// shiftRunner().
class PipelineWiring : public QObject
{
    Q_OBJECT
public:
    /// `window` parents the file dialogs of File > Export pipeline step and Print handout.
    PipelineWiring(TraceRunner *runner, PipelineView *pipeline, MainActions *actions,
                   QWidget *window);

    /// RoPE's shift check: a second forward pass, in the pool, while the RoPE panel is shown.
    PositionShiftRunner *shiftRunner() const { return m_shiftRunner; }

signals:
    /// What an export wrote or why it could not.
    void message(const QString &text);

private:
    PositionShiftRunner *m_shiftRunner = nullptr;
};

} // namespace headlens
