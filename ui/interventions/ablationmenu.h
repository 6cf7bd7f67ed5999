// AblationMenu: the context menu of every head's heatmap: ablate, keep only, restore.
#pragma once

#include <QObject>
#include <QPoint>

class QMenu;

namespace headlens {

class Workspace;

/// One menu for the heads grid, the single-head view and the Model tab's thumbnails; its
/// choices edit the workspace's ablations (AblationSet), whose change recomputes the views
/// through the runner like any other setting. Layers 0-based, heads 0-based (shown from 1).
class AblationMenu : public QObject
{
    Q_OBJECT
public:
    explicit AblationMenu(Workspace *workspace, QObject *parent = nullptr);
    ~AblationMenu() override;

    /// Fills the menu for head `head` of `layer` and pops it up at `globalPosition` (it does not
    /// block: tests trigger its actions by object name: ablateZero, ablateMean, keepOnly,
    /// restoreHead, restoreAll).
    void popup(int layer, int head, const QPoint &globalPosition);
    /// The menu as last filled.
    QMenu *menu() const { return m_menu; }

private:
    void fill(int layer, int head);

    Workspace *m_workspace;
    QMenu *m_menu; ///< owned; a QMenu needs no parent widget to pop up
};

} // namespace headlens
