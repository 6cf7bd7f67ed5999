// HeadImportanceView: a sentence, a button and the RankingHeatmap of HeadImportance::lossIncrease.
#include "interventions/headimportanceview.h"

#include "interventions/rankingheatmap.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace headlens {

HeadImportanceView::HeadImportanceView(QWidget *parent) : QWidget(parent)
{
    auto *about = new QLabel(
        tr("<b>Head importance</b> — each head zero-ablated alone, one pass per head: how much "
           "the model's loss on the text goes up without it (the built-in layer: how much its "
           "output changes). Click a cell or a row to open that head."),
        this);
    about->setWordWrap(true);
    m_compute = new QPushButton(tr("Compute importance"), this);
    m_compute->setObjectName("computeImportance");
    m_useExample = new QPushButton(this);
    m_useExample->setObjectName("useTaskExample");
    m_useExample->hide();
    m_formatNote = new QLabel(this);
    m_formatNote->setObjectName("taskFormatNote");
    m_formatNote->setWordWrap(true);
    m_formatNote->hide();
    m_heatmap = new RankingHeatmap(this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_compute);
    buttons->addWidget(m_useExample);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(about);
    layout->addWidget(m_formatNote);
    layout->addLayout(buttons);
    layout->addWidget(m_heatmap, 1);
    connect(m_compute, &QPushButton::clicked, this, &HeadImportanceView::computeRequested);
    connect(m_useExample, &QPushButton::clicked, this, &HeadImportanceView::exampleRequested);
}

void HeadImportanceView::setTask(const QString &task, const QString &formatProblem)
{
    m_useExample->setVisible(!task.isEmpty());
    m_useExample->setText(tr("Use the %1 task's example").arg(task));
    m_formatNote->setVisible(!task.isEmpty() && !formatProblem.isEmpty());
    m_formatNote->setText(
        tr("<b>The text is not an example of the task:</b> %1 Ranked on it, the heads would "
           "measure noise.")
            .arg(formatProblem.toHtmlEscaped()));
}

void HeadImportanceView::setImportance(std::shared_ptr<const HeadImportance> importance)
{
    m_importance = std::move(importance);
    m_heatmap->setRunning(false);
    if (!m_importance)
        return;
    const bool model = m_importance->fromLoss;
    const QString title =
        model ? tr("Loss increase when each head alone is ablated — %1; unablated loss %2 nats")
                    .arg(QString::fromStdString(m_importance->loss))
                    .arg(m_importance->cleanLoss, 0, 'f', 4)
              : QString::fromStdString(m_importance->loss);
    m_heatmap->setValues(m_importance->lossIncrease, title,
                         model ? tr("Δ loss") : tr("|Δ output|"));
}

void HeadImportanceView::setPlotStyle(const PlotStyle &style)
{
    m_heatmap->setPlotStyle(style);
}

} // namespace headlens
