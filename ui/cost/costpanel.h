// CostPanel: what MHA, the chosen h_kv and MQA cost, in a sentence, a table and a plot.
#pragma once

#include "attention/attentioncost.h"
#include "attention/trace.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace headlens {

class CostSettingsForm;
class CostTable;
class KvCachePlot;

/// The "Cost" tab. Follows the trace on screen (its layer and text length) until the person
/// sets sizes of their own or picks a preset; then compares those. The sums are
/// compareAttentionCosts' (a few multiplications: nothing here waits for anything).
class CostPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CostPanel(QWidget *parent = nullptr);

    /// The layer and text of `trace`, sequence `batch` (its key count is the context length).
    void setTrace(const std::shared_ptr<const Trace> &trace, int batch);
    void setPlotStyle(const PlotStyle &style);

    CostSettingsForm *form() const { return m_form; }
    CostTable *table() const { return m_table; }
    KvCachePlot *plot() const { return m_plot; }
    QString headline() const;
    const CostComparison &comparison() const { return m_costs; }

private:
    void recompute();

    CostSettingsForm *m_form = nullptr;
    QLabel *m_headline = nullptr;
    CostTable *m_table = nullptr;
    KvCachePlot *m_plot = nullptr;
    CostComparison m_costs;
};

} // namespace headlens
