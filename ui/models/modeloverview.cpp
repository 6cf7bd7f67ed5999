// ModelOverview: grid on the left; statistics table over the next-token bars on the right.
#include "models/modeloverview.h"

#include "models/headstatstable.h"
#include "models/modelgridview.h"
#include "models/predictionspanel.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace headlens {

namespace {

QWidget *titled(QLabel *title, QWidget *body, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(4, 4, 4, 4);
    title->setWordWrap(true);
    layout->addWidget(title);
    layout->addWidget(body, 1);
    return box;
}

} // namespace

ModelOverview::ModelOverview(QWidget *parent) : QWidget(parent)
{
    setObjectName("modelOverview");
    m_grid = new ModelGridView(this);
    m_table = new HeadStatsTable(this);
    m_table->setObjectName("headStatsTable");
    m_predictions = new PredictionsPanel(this);
    m_title = new QLabel(this);
    m_nextTitle = new QLabel(tr("<b>Next token</b>"), this);
    auto *stats = new QLabel(tr("<b>Every head's statistics</b> — click a header to sort, a row "
                                "to open that head"),
                             this);
    auto *right = new QSplitter(Qt::Vertical, this);
    right->addWidget(titled(stats, m_table, right));
    right->addWidget(titled(m_nextTitle, m_predictions, right));
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(titled(m_title, m_grid, splitter));
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    connect(m_grid, &ModelGridView::headClicked, this, &ModelOverview::headChosen);
    connect(m_table, &HeadStatsTable::headActivated, this, &ModelOverview::headChosen);
}

void ModelOverview::setRun(std::shared_ptr<const ModelRun> run)
{
    if (!run)
        return;
    m_title->setText(tr("<b>%1</b> — every layer (row) and head (column); click one to open it")
                         .arg(QString::fromStdString(run->name).toHtmlEscaped()));
    const QString last =
        run->tokens.empty() ? QString() : QString::fromStdString(run->tokens.back());
    m_nextTitle->setText(tr("<b>Next token</b> after “%1”").arg(last.toHtmlEscaped()));
    m_grid->setRun(run);
    m_table->setRun(run);
    m_predictions->setPredictions(run->topNext);
}

void ModelOverview::setPlotStyle(const PlotStyle &style)
{
    m_grid->setPlotStyle(style);
    m_predictions->setPlotStyle(style);
}

void ModelOverview::setCurrent(int layer, int head)
{
    m_grid->setCurrent(layer, head);
}

} // namespace headlens
