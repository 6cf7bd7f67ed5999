// HeadImportanceView: which heads matter for the text: the loss change when each alone is ablated.
#pragma once

#include "model/headimportance.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QPushButton;

namespace headlens {

class RankingHeatmap;

/// Passive: "Compute importance" asks for the ranking (computeRequested); RankingCommands runs
/// it in the trace runner's worker and hands back setImportance or a cancellation.
class HeadImportanceView : public QWidget
{
    Q_OBJECT
public:
    explicit HeadImportanceView(QWidget *parent = nullptr);

    void setImportance(std::shared_ptr<const HeadImportance> importance);
    void setPlotStyle(const PlotStyle &style);
    RankingHeatmap *heatmap() const { return m_heatmap; }
    QPushButton *computeButton() const { return m_compute; }
    const std::shared_ptr<const HeadImportance> &importance() const { return m_importance; }

signals:
    void computeRequested();

private:
    std::shared_ptr<const HeadImportance> m_importance;
    QPushButton *m_compute = nullptr;
    RankingHeatmap *m_heatmap = nullptr;
};

} // namespace headlens
