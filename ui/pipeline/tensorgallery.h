// TensorGallery: the tensors of one step as heatmaps, one panel per head for per-head tensors.
#pragma once

#include "attention/trace.h"
#include "pipeline/galleryimages.h"
#include "plot/plotstyle.h"
#include "runner/newestinpool.h"
#include "views/gridarrangement.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QScrollArea;

namespace headlens {

class HeatmapPlot;

/// Passive. A combo picks which of the step's tensors to draw (its outputs first, then its
/// inputs); all panels share one color range so heads can be compared. Panel titles carry the
/// heads' colors. A large tensor is sliced and pooled in ViewWorkPool (GalleryImages): the
/// panels show the tensor drawn before until it comes, and only the newest one is drawn.
class TensorGallery : public QWidget
{
    Q_OBJECT
public:
    explicit TensorGallery(QWidget *parent = nullptr);

    void setStep(std::shared_ptr<const Trace> trace, int batch, const TraceStep &step);
    /// Lets the trace go while the Pipeline tab is hidden and a newer one waits (PipelineView);
    /// the drawn panels stay until the next setStep.
    void releaseTrace() { m_trace.reset(); }
    void setPlotStyle(const PlotStyle &style);
    QString currentTensor() const;
    /// The tensor drawn now. Precondition: the step has one (currentTensor() is not empty).
    TraceKey currentKey() const;
    int panelCount() const;
    /// As many panels at once as the page shows (HeadsGridView's numbers).
    static constexpr int kAllAtOnce = 12;
    static constexpr double kReadableCell = 8.0;
    /// Whether every panel is on screen at once (up to kAllAtOnce: then in cells of at least
    /// kReadableCell, every other label where every label does not fit).
    bool fitsOnScreen() const { return m_arrangement.fits; }

signals:
    /// A click on cell (row, col) of head `head`'s panel of tensor `tensor`.
    void cellClicked(const QString &tensor, int head, int row, int col);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// The panels are never arranged for less height than this (they scroll below it)...
    static constexpr int kLeastHeight = 160;
    /// ...and no panel's cells take less than this a side.
    static constexpr int kLeastSide = 80;

    void fitMeaning();
    int heightOnScreen() const;
    QScrollArea *page() const; ///< the page the gallery scrolls in, if any
    void arrange();
    void arrangeSoon(); ///< arrange() once the events pending now are handled
    void refill();
    void draw(const GalleryImages &images);
    void ensurePlots(int count);
    void showCell(int head, int row, int col);

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    PlotStyle m_style;
    QComboBox *m_choice;
    std::vector<TraceKey> m_keys; ///< the tensor behind each entry of m_choice
    QLabel *m_meaning;
    QWidget *m_host;
    QGridLayout *m_grid;
    std::vector<HeatmapPlot *> m_plots;
    std::vector<QPoint> m_hovered;
    GalleryImages m_shown; ///< what the panels draw, for the hover text
    NewestInPool<GalleryImages> m_images;
    int m_visible = 0;
    GridArrangement m_arrangement;    ///< how the panels are placed now
    TileRoom m_placedRoom;            ///< the room around their cells they were placed with
    QWidget *m_watchedPage = nullptr; ///< the page's content, whose layout moves the panels
    bool m_arrangePending = false;
};

} // namespace headlens
