// AtlasView: the Atlas tab: every head of the model typed by where it looks on standard probes.
#pragma once

#include "lens/runanalysisview.h"
#include "model/headatlas.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;

namespace headlens {

class HeatmapPlot;

/// A layers x heads map of the head atlas (computeHeadAtlas): each cell names the head's type
/// and is coloured by the score chosen above it (or, by default, by how far its type's score
/// stands above chance). Computed off the UI thread when the tab is shown, again for every new
/// text or model while it stays shown, never while hidden. Hover a head for all its scores;
/// click it to choose it, "Show in the Heads view" to pin it there.
class AtlasView : public RunAnalysisView
{
    Q_OBJECT

public:
    explicit AtlasView(QWidget *parent = nullptr);

    /// Outlines head (layer, head) (the head pinned elsewhere) and describes it below the map.
    void chooseHead(int layer, int head);
    void setPlotStyle(const PlotStyle &style);

    /// The map's colour: -1 the type's strength above chance, else an AtlasScore.
    void showScore(int score);
    HeatmapPlot *map() const { return m_map; }
    QComboBox *scoreChoice() const { return m_score; }
    const std::shared_ptr<const HeadAtlas> &atlas() const { return m_atlas; }
    /// The value drawn in cell (layer, head) for the score shown.
    double shownValue(int layer, int head) const;
    /// Every score of head (layer, head) with its chance, as the cell's tooltip shows them.
    QString headToolTip(int layer, int head) const;
    QString status() const;
    QString summary() const;
    QString headText() const;

signals:
    /// "Show in the Heads view" for the chosen head.
    void headOpened(int layer, int head);

protected:
    void start() override;

private:
    /// Head (layer, head)'s type and every score it has with its chance, `separator` between.
    QString describeHead(int layer, int head, const QString &separator) const;
    void setAtlas(std::shared_ptr<const HeadAtlas> atlas);

    std::shared_ptr<const HeadAtlas> m_atlas;
    int m_layer = -1, m_head = -1;
    QLabel *m_intro = nullptr;
    QLabel *m_status = nullptr;
    QComboBox *m_score = nullptr;
    HeatmapPlot *m_map = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_headLabel = nullptr;
    QPushButton *m_open = nullptr;
};

} // namespace headlens
