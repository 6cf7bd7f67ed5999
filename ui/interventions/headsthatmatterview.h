// HeadsThatMatterView: the "Heads that matter" tab: head importance, the patching map, and
// both over a dataset.
#pragma once

#include "plot/plotstyle.h"

#include <QTabWidget>

namespace headlens {

class DatasetView;
class HeadImportanceView;
class PatchingMapView;

/// Two modes of one question, which heads the model's answer depends on: ablating each head
/// (importance) or restoring each from a clean run (patching), on the text or over a dataset of
/// prompts (DatasetView, which runs its own). Each page scrolls down (the
/// patching form, map and bars are taller than 720 px in presentation mode). Passive;
/// RankingCommands runs what they ask for.
class HeadsThatMatterView : public QTabWidget
{
    Q_OBJECT
public:
    explicit HeadsThatMatterView(QWidget *parent = nullptr);

    HeadImportanceView *importance() const { return m_importance; }
    PatchingMapView *patching() const { return m_patching; }
    DatasetView *dataset() const { return m_dataset; }
    /// Brings the patching map's page to the front.
    void showPatching();
    /// Brings the dataset's page to the front.
    void showDataset();
    /// Scrolls the patching page down to its map and the whole of the bars by position under it.
    void scrollToPatchingMap();
    void setPlotStyle(const PlotStyle &style);

private:
    HeadImportanceView *m_importance = nullptr;
    PatchingMapView *m_patching = nullptr;
    DatasetView *m_dataset = nullptr;
};

} // namespace headlens
