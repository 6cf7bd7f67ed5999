// LensView: the Lens tab: what the layers and heads of the run on screen write.
#pragma once

#include "lens/runanalysisview.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace headlens {

class AttributionPanel;
class LogitLensPlot;

/// The logit lens of the text above the direct logit attribution of one position, both of the
/// unchanged model (the workspace's ablations are not applied). Both are computed off the UI
/// thread when the tab is shown (a model pass each), again for every new text while it stays
/// shown, and not at all while hidden. Clicking a column of the lens attributes
/// that position; the attribution starts at the last position read, with the model's top token.
class LensView : public RunAnalysisView
{
    Q_OBJECT
public:
    explicit LensView(QWidget *parent = nullptr);

    /// Outlines head (layer, head) in the attribution (the head pinned elsewhere).
    void chooseHead(int layer, int head);
    void setPlotStyle(const PlotStyle &style);

    LogitLensPlot *lensPlot() const { return m_plot; }
    AttributionPanel *attribution() const { return m_attribution; }
    QString status() const;

signals:
    /// "Show in the Heads view" for a head of the attribution.
    void headOpened(int layer, int head);

protected:
    void start() override;

private:
    /// The attribution's choices at `position` (an index into the text), from the lens.
    void attributeAt(int position);

    QLabel *m_intro = nullptr;
    QLabel *m_status = nullptr;
    LogitLensPlot *m_plot = nullptr;
    AttributionPanel *m_attribution = nullptr;
};

} // namespace headlens
