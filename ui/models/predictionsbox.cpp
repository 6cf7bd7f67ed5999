// PredictionsBox: chooses between the next-token bars and the mask fillers; the panel draws them.
#include "models/predictionsbox.h"

#include "models/predictionspanel.h"
#include "panels/verticalscrollarea.h"

#include <QLabel>
#include <QVBoxLayout>

namespace headlens {

namespace {

// An encoder's run: it may hold masks (maskToken), or say it cannot fill them (noMaskHead).
bool fillsMasks(const ModelRun &run)
{
    return run.readsPairs || !run.maskToken.empty() || !run.noMaskHead.empty();
}

} // namespace

PredictionsBox::PredictionsBox(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel(tr("<b>Next token</b>"), this);
    m_title->setObjectName("predictionsTitle");
    m_title->setWordWrap(true);
    m_panel = new PredictionsPanel;
    m_scroll = new VerticalScrollArea(this);
    m_scroll->setWidget(m_panel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_scroll, 1);
}

QString PredictionsBox::title() const
{
    return m_title->text();
}

void PredictionsBox::setRun(const ModelRun &run)
{
    if (fillsMasks(run)) {
        showFills(run);
    } else {
        const QString last =
            run.tokens.empty() ? QString() : QString::fromStdString(run.tokens.back());
        m_title->setText(tr("<b>Next token</b> after “%1”").arg(last.toHtmlEscaped()));
        m_panel->setPredictions(run.topNext);
    }
    m_scroll->setVisible(!m_panel->groups().empty());
    fitScrollArea();
}

// Tokens are numbered from 0, as the pipeline's "query 3" and --layer count.
void PredictionsBox::showFills(const ModelRun &run)
{
    const QString mask = QString::fromStdString(run.maskToken.empty() ? "[MASK]" : run.maskToken);
    QString note;
    if (!run.noMaskHead.empty())
        note = QString::fromStdString(run.noMaskHead).toHtmlEscaped();
    else if (run.maskFills.empty())
        note = tr("Write %1 in the text to see what the model would put there")
                   .arg(mask.toHtmlEscaped());
    m_title->setText(tr("<b>Masked tokens</b>") + (note.isEmpty() ? QString() : "<br>" + note));
    std::vector<PredictionGroup> groups;
    if (run.noMaskHead.empty()) {
        for (const MaskFill &fill : run.maskFills) {
            // t_1 … t_n as the formulas count: [CLS] is t1.
            PredictionGroup group{tr("t%1 %2").arg(fill.position + 1).arg(mask), fill.top};
            if (group.top.size() > size_t(kFillers))
                group.top.resize(size_t(kFillers));
            groups.push_back(std::move(group));
        }
    }
    m_panel->setGroups(std::move(groups));
}

// The first group stays whole (a decoder's ten tokens, as before); more masks scroll instead
// of making the Model tab, and with it the window, taller.
void PredictionsBox::fitScrollArea()
{
    m_scroll->setMinimumHeight(m_panel->groups().empty() ? 0 : m_panel->firstGroupHeight());
}

void PredictionsBox::setPlotStyle(const PlotStyle &style)
{
    m_panel->setPlotStyle(style);
    fitScrollArea();
}

} // namespace headlens
