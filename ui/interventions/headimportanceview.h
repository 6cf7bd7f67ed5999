// HeadImportanceView: which heads matter for the text: the loss change when each alone is ablated.
#pragma once

#include "model/headimportance.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QLabel;
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
    /// A toy model's task: its name, and why the text is not one of its examples (empty when
    /// it is). The button that types the task's example shows for a task; the problem shows
    /// above it. An empty `task`: no toy model, neither shows.
    void setTask(const QString &task, const QString &formatProblem);
    QPushButton *exampleButton() const { return m_useExample; }
    QLabel *formatNote() const { return m_formatNote; }

signals:
    void computeRequested();
    /// "Use the task's example": type the task's probe and rank the heads on it.
    void exampleRequested();

private:
    std::shared_ptr<const HeadImportance> m_importance;
    QPushButton *m_compute = nullptr;
    QPushButton *m_useExample = nullptr;
    QLabel *m_formatNote = nullptr;
    RankingHeatmap *m_heatmap = nullptr;
};

} // namespace headlens
