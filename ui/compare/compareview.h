// CompareView: the Compare tab: text B beside text A, and A − B, head by head.
#pragma once

#include "compare/headcomparison.h"
#include "plot/plotstyle.h"
#include "runner/comparedruns.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace headlens {

class DifferenceHeatmap;
class HeatmapPlot;
class ModelDivergencePanel;
class VerticalScrollArea;

/// Passive: it asks for a comparison (compareRequested) and draws the ComparedRuns it is given,
/// one row per head of the traced layer: A's heatmap, B's, and A − B in a diverging map on
/// ±max|A − B| of all heads, titled with max|A − B| and the Jensen-Shannon divergence. When the
/// texts have other token counts it shows A and B only and says why. When B is another model,
/// a ModelDivergencePanel above the rows maps every layer's heads and lists both models' next
/// tokens; a click on a head draws its layer's rows and scrolls to it. CompareCommands runs it.
class CompareView : public QWidget
{
    Q_OBJECT
public:
    explicit CompareView(QWidget *parent = nullptr);

    QString textB() const;
    void setTextB(const QString &text);
    /// What B is: the text of the box, or A's text with the change the "B is" list names.
    ComparisonRequest request() const;
    /// Picks `change` in the "B is" list (the text box is used only with Text).
    void setChange(ComparedChange change);
    /// Draws `runs` with A's sequence `batchIndex` (the one the other views show).
    void setComparison(std::shared_ptr<const ComparedRuns> runs, int batchIndex);
    /// B's run was refused: the message, and the plots of the last comparison stay.
    void showFailed(const QString &message);
    void showHint(const QString &text);
    void setPlotStyle(const PlotStyle &style);

    std::shared_ptr<const ComparedRuns> runs() const { return m_runs; }
    /// What is drawn; nothing before the first comparison.
    const std::optional<HeadComparison> &comparison() const { return m_comparison; }
    int rowCount() const { return int(m_rows.size()); }
    HeatmapPlot *plotA(int head) const { return m_rows[size_t(head)].a; }
    HeatmapPlot *plotB(int head) const { return m_rows[size_t(head)].b; }
    DifferenceHeatmap *plotDifference(int head) const { return m_rows[size_t(head)].difference; }
    /// The line above the plots: the hint, the problem or the failure.
    QString message() const;
    /// How many of a head's plots (A, B, A − B) sit side by side: 3 when they fit the width at
    /// their minimum size, else 2 (A − B below A) or 1 (one above the other).
    int columns() const { return m_columns; }
    /// Two models compared: the map and the predictions (hidden otherwise).
    ModelDivergencePanel *modelPanel() const { return m_modelPanel; }
    /// The layer whose heads the rows draw when two models are compared; -1 otherwise.
    int shownLayer() const { return m_layer; }
    /// Draws layer `layer`'s rows of the two models and scrolls to head `head`'s (a click on
    /// the map). Precondition: runs() compares two models.
    void showHead(int layer, int head);

signals:
    void compareRequested(const ComparisonRequest &b);
    /// "Choose…" beside B's model path: the window offers its model list.
    void chooseModelRequested();
    /// The tab came to the front (true) or left it: B is computed only while it is shown.
    void shownChanged(bool shown);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Row
    {
        HeatmapPlot *a = nullptr;
        HeatmapPlot *b = nullptr;
        DifferenceHeatmap *difference = nullptr;
    };
    void makeRows(int heads);
    void draw(const Trace &a, int batchA, const Trace &b, int batchB);
    /// Layer `layer` of runs()'s two models.
    void drawLayer(int layer);
    /// m_comparison's heads in the rows, titled by `headName`.
    void drawRows(const QStringList &rowsA, const QStringList &colsA, const QStringList &rowsB,
                  const QStringList &colsB, const std::function<QString(int)> &headName);
    /// The box and the Choose… button for what the "B is" list names.
    void showChangeInput();
    /// The plots shown for each head, in order: A, B and, when comparable, A − B.
    std::vector<HeatmapPlot *> plotsOf(const Row &row) const;
    int columnsThatFit() const;
    /// Places the plots `columns()` to a row, each head's plots together; `force`: also when
    /// the column count did not change (new rows).
    void arrange(bool force);

    QComboBox *m_change = nullptr;
    QLineEdit *m_textB = nullptr;
    QPushButton *m_compare = nullptr;
    QPushButton *m_chooseModel = nullptr;
    ModelDivergencePanel *m_modelPanel = nullptr;
    VerticalScrollArea *m_scroll = nullptr;
    int m_layer = -1;
    QLabel *m_message = nullptr;
    QGridLayout *m_grid = nullptr;
    QWidget *m_viewport = nullptr; ///< the scroll area's: its width is the room for a row
    int m_columns = 3;
    std::vector<Row> m_rows;
    std::shared_ptr<const ComparedRuns> m_runs;
    std::optional<HeadComparison> m_comparison;
    PlotStyle m_style;
};

} // namespace headlens
