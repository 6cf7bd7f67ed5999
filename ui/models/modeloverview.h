// ModelOverview: the "Model" tab: every layer x head, the per-head statistics, the predictions.
#pragma once

#include "model/modelrun.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTabWidget;

namespace headlens {

class HeadStatsTable;
class LayerSharesPlot;
class ModelGridView;
class PredictionsBox;
class PredictionsPanel;

/// Passive: setRun() fills every part; a click in the grid or the table asks to open a head.
class ModelOverview : public QWidget
{
    Q_OBJECT
public:
    explicit ModelOverview(QWidget *parent = nullptr);

    void setRun(std::shared_ptr<const ModelRun> run);
    void setPlotStyle(const PlotStyle &style);
    void setCurrent(int layer, int head);

    ModelGridView *grid() const { return m_grid; }
    HeadStatsTable *table() const { return m_table; }
    PredictionsPanel *predictions() const;
    PredictionsBox *predictionsBox() const { return m_predictions; }
    /// The per-layer [SEP]/[CLS] plot, a tab beside the table for runs with such tokens.
    LayerSharesPlot *layerShares() const { return m_layerShares; }
    /// The tabs around the table and the plot (the plot's tab is there only when it is shown).
    QTabWidget *statisticsTabs() const { return m_statsTabs; }

signals:
    void headChosen(int layer, int head);

private:
    ModelGridView *m_grid = nullptr;
    HeadStatsTable *m_table = nullptr;
    QTabWidget *m_statsTabs = nullptr;
    LayerSharesPlot *m_layerShares = nullptr;
    PredictionsBox *m_predictions = nullptr;
    QLabel *m_title = nullptr;
};

} // namespace headlens
