// ControlsPanel: banner on top, then text, layer shape, attention options and positions.
#include "panels/controlspanel.h"

#include "panels/attentionoptionsbox.h"
#include "panels/layershapebox.h"
#include "panels/positionsbox.h"
#include "panels/problembanner.h"
#include "panels/textinputsbox.h"
#include "panels/verticalscrollarea.h"
#include "workspace/workspace.h"

#include <QScrollBar>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

namespace headlens {

ControlsPanel::ControlsPanel(Workspace *workspace, QWidget *parent)
    : QWidget(parent), m_workspace(workspace)
{
    setObjectName("controlsPanel");
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    // Never sideways: the panel is as wide as its content's minimum (minimumSizeHint), and long
    // texts wrap.
    m_scroll = new VerticalScrollArea(this);
    auto *content = new QWidget(m_scroll);
    auto *layout = new QVBoxLayout(content);
    m_banner = new ProblemBanner(content);
    m_texts = new TextInputsBox(workspace, content);
    m_shape = new LayerShapeBox(workspace, content);
    m_options = new AttentionOptionsBox(workspace, content);
    m_positions = new PositionsBox(workspace, content);
    layout->addWidget(m_banner);
    layout->addWidget(m_texts);
    layout->addWidget(m_shape);
    layout->addWidget(m_options);
    layout->addWidget(m_positions);
    layout->addStretch(1);
    m_scroll->setWidget(content);
    outer->addWidget(m_scroll);
    // A red frame marks the setting a problem names.
    setStyleSheet("*[problem=\"true\"] { border: 2px solid #d9534f; border-radius: 3px; }");
    connect(m_banner, &ProblemBanner::fixChosen, this, &ControlsPanel::applyFix);
    connect(workspace, &Workspace::inputChanged, this, &ControlsPanel::syncFromWorkspace);
    connect(workspace, &Workspace::batchIndexChanged, this, &ControlsPanel::syncFromWorkspace);
}

void ControlsPanel::insertBox(QWidget *box)
{
    auto *layout = qobject_cast<QVBoxLayout *>(m_texts->parentWidget()->layout());
    layout->insertWidget(layout->indexOf(m_texts), box);
}

// The dock is never narrower than its content's narrowest layout (wrapped texts, the model
// buttons), measured when asked, so it follows the font of presentation mode: a width fixed
// from the content's size hint made the dock 525 px wide there and pushed a 1280 x 720 window
// off the screen; a smaller fixed width cut the rows at the right edge.
QSize ControlsPanel::minimumSizeHint() const
{
    const int scrollBar = m_scroll->verticalScrollBar()->sizeHint().width();
    const int content = m_scroll->widget()->minimumSizeHint().width();
    return QSize(std::max(200, content + scrollBar + 2), QWidget::minimumSizeHint().height());
}

void ControlsPanel::setLayerSettingsVisible(bool visible)
{
    m_shape->setVisible(visible);
    m_options->setVisible(visible);
    m_positions->setVisible(visible);
}

void ControlsPanel::syncFromWorkspace()
{
    m_texts->syncFromWorkspace();
    m_shape->syncFromWorkspace();
    m_options->syncFromWorkspace();
    m_positions->syncFromWorkspace();
}

void ControlsPanel::showProblem(const ConfigProblem &problem)
{
    m_banner->showProblem(problem);
    markField(QString::fromStdString(problem.field));
}

void ControlsPanel::showMessage(const QString &message)
{
    m_banner->showMessage(message);
    markField(QString());
}

void ControlsPanel::clearProblem()
{
    m_banner->clear();
    markField(QString());
}

void ControlsPanel::markField(const QString &field)
{
    QWidget *widget = fieldWidget(field);
    if (widget == m_marked)
        return;
    for (QWidget *w : {m_marked, widget}) {
        if (!w)
            continue;
        w->setProperty("problem", w == widget);
        w->style()->unpolish(w);
        w->style()->polish(w);
    }
    m_marked = widget;
}

QWidget *ControlsPanel::fieldWidget(const QString &field) const
{
    if (field.isEmpty())
        return nullptr;
    if (QWidget *w = m_shape->fieldWidget(field))
        return w;
    if (QWidget *w = m_options->fieldWidget(field))
        return w;
    if (QWidget *w = m_positions->fieldWidget(field))
        return w;
    return m_texts->fieldWidget(field);
}

void ControlsPanel::applyFix(const ConfigFix &fix)
{
    AttentionConfig config = m_workspace->state().config;
    const std::string &field = fix.field;
    if (field == "heads")
        config.heads = fix.value;
    else if (field == "d_model")
        config.dModel = fix.value;
    else if (field == "d_k")
        config.dK = fix.value;
    else if (field == "d_v")
        config.dV = fix.value;
    else if (field == "d_in")
        config.dIn = fix.value;
    else if (field == "kv_heads")
        config.kvHeads = fix.value;
    else if (field == "window")
        config.window = fix.value;
    else if (field == "rope_theta")
        config.ropeTheta = float(fix.value);
    else if (field == "rope_position_offset")
        config.ropePositionOffset = fix.value;
    else if (field == "temperature")
        config.temperature = float(fix.value);
    else if (field == "dropout")
        config.dropout = float(fix.value);
    m_workspace->setConfig(config);
}

} // namespace headlens
