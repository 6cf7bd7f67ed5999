// ControlsDock: the "Controls" dock ("controlsDock"), holding the ControlsPanel.
#pragma once

#include <QDockWidget>

namespace headlens {

class ControlsPanel;
class Workspace;

/// Movable, floatable and closable; View > Controls toggles it.
class ControlsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit ControlsDock(Workspace *workspace, QWidget *parent = nullptr);

    ControlsPanel *controls() const { return m_controls; }

private:
    ControlsPanel *m_controls = nullptr;
};

} // namespace headlens
