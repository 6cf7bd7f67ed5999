// ModelOverview: the "Model" tab: every layer x head, the per-head statistics, the predictions.
#pragma once

#include "model/modelrun.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace headlens {

class HeadStatsTable;
class ModelGridView;
class PredictionsPanel;

/// Passive: setRun() fills all three parts; a click in the grid or the table asks to open a head.
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
    PredictionsPanel *predictions() const { return m_predictions; }

signals:
    void headChosen(int layer, int head);

private:
    ModelGridView *m_grid = nullptr;
    HeadStatsTable *m_table = nullptr;
    PredictionsPanel *m_predictions = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_nextTitle = nullptr;
};

} // namespace headlens
