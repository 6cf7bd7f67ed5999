// HeadsGridView: one heatmap per head in a grid, sharing one color scale; passive.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"
#include "views/gridarrangement.h"
#include "views/headimagemaker.h"

#include <QWidget>

#include <memory>
#include <vector>

class QGridLayout;
class QLabel;
class QScrollArea;
class QStackedWidget;

namespace headlens {

class ColorLegend;
class HeatmapPlot;
class KvGroupFrame;
class Selection;
class StaleFade;
class StaleMark;

/// Thumbnails are max-pooled to at most kThumbnailCells per side (the single-head view shows
/// more). Plots are reused; only a different head count adds or removes some. The thumbnails of
/// long texts are made in ViewWorkPool (HeadImageMaker) and drawn when ready. When query
/// heads share K/V heads (h_kv < h) each group sits in its own KvGroupFrame. No heatmap is
/// squeezed below the size that draws every token label: the grid takes fewer columns and,
/// when the rows do not fit, scrolls down.
class HeadsGridView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kThumbnailCells = 96;
    /// No heatmap is drawn smaller than this many pixels a side, nor smaller than its labels
    /// need (HeatmapPlot::minimumSizeHint).
    static constexpr int kMinPlotSide = 120;
    /// Up to this many heads are shown at once when the view is too small for all of them
    /// with every token label: with fewer labels, in cells of at least kReadableCell px.
    static constexpr int kAllAtOnce = 12;
    static constexpr double kReadableCell = 8.0;

    explicit HeadsGridView(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batchIndex);
    void setSelection(Selection *selection);
    void setPlotStyle(const PlotStyle &style);
    /// Replaces the grid by a friendly sentence (e.g. no text yet); setTrace brings it back.
    void showHint(const QString &text);
    /// The sentence shown instead of the grid, or empty while the grid is shown.
    QString hint() const;
    /// Marks the heads on screen as not matching the settings, with `reason` (why the newest
    /// settings could not be computed); empty, and a setTrace of a newer trace, clear the mark.
    void setStale(const QString &reason);
    StaleMark *staleMark() const { return m_stale; }
    /// A few words for each head's caption, on a line under its title (e.g. its score against
    /// a pattern, "previous token ★0.83"), explained by `toolTip` under the title's own; empty:
    /// none.
    void setHeadNotes(std::vector<QString> notes, const QString &toolTip);
    /// The area the grid scrolls in (down only) when its heatmaps do not fit.
    QScrollArea *scrollArea() const { return m_scroll; }

    int plotCount() const { return int(m_plots.size()); }
    HeatmapPlot *plot(int head) const { return m_plots.at(size_t(head)); }
    /// The frames around the heads that share a K/V head: h_kv of them when h_kv < h, else none.
    int groupCount() const { return int(m_groups.size()); }
    KvGroupFrame *groupFrame(int kvHead) const { return m_groups.at(size_t(kvHead)); }
    const QString &hoverText() const { return m_hoverText; }
    /// The trace whose weights the thumbnails show now (they follow setTrace with a delay when
    /// pooling runs in the background); null once that trace is freed.
    std::shared_ptr<const Trace> drawnTrace() const { return m_shown.trace.lock(); }

signals:
    void hoverTextChanged(const QString &text);
    /// Right-click on head `head`: `layer` is the trace's (0 for the built-in layer).
    void headMenuRequested(int layer, int head, const QPoint &globalPosition);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Each returns whether it changed the widgets (then the grid is arranged again).
    bool ensurePlots(int count);
    bool ensureGroups(int kvHeads);
    void arrange();
    /// arrange() once the events pending now are handled (many heatmaps may ask at once).
    void arrangeSoon();
    GridArrangement bestArrangement(QSize area, int rows, int cols, const TileRoom &room) const;
    void place(const GridArrangement &arrangement, const TileRoom &room);
    void refill();
    /// The titles of the heads, with their notes.
    void retitle();
    void applyThumbnails(const HeadImages &thumbnails);
    void onCellHovered(int head, int row, int col);
    void onHoverChanged(int head, int query, int key);

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    Selection *m_selection = nullptr;
    PlotStyle m_style;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_hint = nullptr;
    StaleMark *m_stale = nullptr;
    StaleFade *m_fade = nullptr; ///< over m_scroll while the picture is stale
    QScrollArea *m_scroll = nullptr;
    QWidget *m_gridHost = nullptr;
    QGridLayout *m_grid = nullptr;
    ColorLegend *m_legend = nullptr;
    std::vector<HeatmapPlot *> m_plots;
    std::vector<KvGroupFrame *> m_groups;
    int m_groupedHeads = 0;        ///< the head count m_groups were made for
    GridArrangement m_arrangement; ///< what the grid shows now; cell 0: not placed yet
    TileRoom m_placedRoom;         ///< the room around the cells it was placed with
    bool m_arrangePending = false; ///< an arrangeSoon() waits for the event loop
    int m_cellRows = 0; ///< each heatmap's rows (queries) and columns (keys) in the trace shown
    int m_cellCols = 0;
    QString m_hoverText;
    std::vector<QString> m_notes; ///< setHeadNotes: one per head, or none
    QString m_notesToolTip;
    HeadImageMaker *m_thumbnails = nullptr;
    HeadImages m_shown; ///< kept so a style change redraws without pooling again
};

} // namespace headlens
