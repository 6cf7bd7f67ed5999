// ControlsPanel: every setting of the session in one scrollable column (lives in a dock).
#pragma once

#include "attention/attentionconfig.h"

#include <QWidget>

class QScrollArea;

namespace headlens {

class AttentionOptionsBox;
class LayerShapeBox;
class PositionsBox;
class ProblemBanner;
class TextInputsBox;
class Workspace;

/// Composes the four groups of controls and the problem banner. Edits go to the Workspace;
/// the panel follows the Workspace back (after a fix, an opened file, an example).
class ControlsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ControlsPanel(Workspace *workspace, QWidget *parent = nullptr);

    /// Marks the control and explains; the fixes are buttons.
    void showProblem(const ConfigProblem &problem);
    /// A message from the core (InputError) or a hint, without fixes.
    void showMessage(const QString &message);
    void clearProblem();
    ProblemBanner *banner() const { return m_banner; }
    /// Applies a fix to the workspace's settings.
    void applyFix(const ConfigFix &fix);
    /// Adds `box` above the text box (the Model box).
    void insertBox(QWidget *box);
    /// Hides the layer shape and options while a model fixes them.
    void setLayerSettingsVisible(bool visible);

    QSize minimumSizeHint() const override;

private:
    void syncFromWorkspace();
    void markField(const QString &field);
    QWidget *fieldWidget(const QString &field) const;

    Workspace *m_workspace;
    QScrollArea *m_scroll = nullptr;
    ProblemBanner *m_banner = nullptr;
    TextInputsBox *m_texts = nullptr;
    LayerShapeBox *m_shape = nullptr;
    AttentionOptionsBox *m_options = nullptr;
    PositionsBox *m_positions = nullptr;
    QWidget *m_marked = nullptr;
};

} // namespace headlens
