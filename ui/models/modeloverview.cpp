// ModelOverview: grid on the left; statistics (table, per-layer plot) over the predictions on
// the right, or below the grid when the table's columns do not fit beside it.
#include "models/modeloverview.h"

#include "models/layersharesplot.h"
#include "models/modelgridview.h"
#include "models/predictionsbox.h"
#include "panels/reflowsplitter.h"
#include "views/headstatstable.h"

#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
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
    // The statistics got two fifths of the width and scrolled sideways at 1280 px in
    // presentation mode ("Prev." cut): beside the grid they are as wide as their columns, and
    // when the grid's minimum leaves too little, they go below it.
    m_table->setMinimumHoldsColumns(true);
    m_layerShares = new LayerSharesPlot(this);
    m_layerShares->setObjectName("layerSharesPlot");
    m_predictions = new PredictionsBox(this);
    m_title = new QLabel(this);
    auto *stats = new QLabel(tr("<b>Every head's statistics</b> — click a header to sort, a row "
                                "to open that head"),
                             this);
    // A tab rather than a section under the table: at 1280 x 720 the table, the plot and the
    // predictions do not fit above one another. Decoders have no [SEP]: one tab, no tab bar.
    m_statsTabs = new QTabWidget(this);
    m_statsTabs->setDocumentMode(true);
    m_statsTabs->setTabBarAutoHide(true);
    m_statsTabs->addTab(titled(stats, m_table, m_statsTabs), tr("Every head"));
    m_layerShares->hide();
    auto *right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_statsTabs);
    right->addWidget(m_predictions);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    auto *splitter = new ReflowSplitter(this);
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

PredictionsPanel *ModelOverview::predictions() const
{
    return m_predictions->panel();
}

void ModelOverview::setRun(std::shared_ptr<const ModelRun> run)
{
    if (!run)
        return;
    m_title->setText(tr("<b>%1</b> — every layer (row) and head (column); click one to open it")
                         .arg(QString::fromStdString(run->name).toHtmlEscaped()));
    m_grid->setRun(run);
    m_table->setRun(run);
    m_predictions->setRun(*run);
    m_layerShares->setRun(*run);
    const int plotTab = m_statsTabs->indexOf(m_layerShares);
    if (LayerSharesPlot::hasSpecialTokens(*run)) {
        if (plotTab < 0)
            m_statsTabs->addTab(m_layerShares, tr("[SEP] / [CLS] per layer"));
    } else if (plotTab >= 0) {
        m_statsTabs->removeTab(plotTab);
        m_layerShares->hide();
    }
}

void ModelOverview::setPlotStyle(const PlotStyle &style)
{
    m_grid->setPlotStyle(style);
    m_predictions->setPlotStyle(style);
    m_layerShares->setPlotStyle(style);
}

void ModelOverview::setCurrent(int layer, int head)
{
    m_grid->setCurrent(layer, head);
}

} // namespace headlens
