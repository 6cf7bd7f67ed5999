// TiledHeadView: one head of a long text, zoomed from the whole text down to single cells.
#pragma once

#include "longtext/tilecolors.h"
#include "longtext/tilepicture.h"
#include "longtext/tileviewport.h"
#include "model/modelrun.h"
#include "runner/newestinpool.h"

#include <QImage>
#include <QWidget>

#include <memory>
#include <optional>

namespace headlens {

/// The pinned head of a tiled run (TiledAttention). The whole text is drawn at once from the
/// run's pooled grid; zoomed in past its bins (the wheel about the pointer, +/-, a drag pans, a
/// double-click or 0 shows the whole), the region on screen is computed again from the kept
/// queries and keys (HeadTiles) in the view pool, pooled to the pixels or at full resolution,
/// while the grid's coarser cells (and the last picture) stand in: the whole text too, once
/// the run's bins are coarser than its pixels. Hover names the query, the key and the exact
/// weight, computed for that cell alone.
class TiledHeadView : public QWidget
{
    Q_OBJECT
public:
    /// A region is recomputed at the pixels' resolution when it holds at most this many cells:
    /// the whole of a 32,768-token text (137 GFLOP and a billion exponentials, seconds in the
    /// view pool, abandoned as soon as the view moves on), so that every zoom ends sharp.
    static constexpr int64_t kRegionCells = int64_t(32768) * 32768;

    explicit TiledHeadView(QWidget *parent = nullptr);

    /// Head `head` of `layer` of `run` (a tiled run), coloured by `colors`, the whole shown.
    void setHead(std::shared_ptr<const ModelRun> run, int layer, int head, TileColors colors);
    void setColors(TileColors colors);
    /// The colours drawn now: those given, or with the Shown scale over a zoomed region, 0 to
    /// the region's largest weight rounded up (a weight near 1/n is as dark as 0 on the whole
    /// text's scale).
    const TileColors &colors() const { return m_shownColors; }
    /// Shows what a cell holds by `pooling`, coloured by `colors`: the picture on screen holds
    /// both poolings, so nothing is computed again (the whole of 32,768 tokens was 0.7 s).
    void setPooling(HeadTiles::Pooling pooling, TileColors colors);
    HeadTiles::Pooling pooling() const { return m_pooling; }
    void setPlotStyle(const PlotStyle &style);
    /// The most cells a region may hold to be computed again (kRegionCells); beyond, the run's
    /// grid stands in. Lower, it shows what a 32,768-token text shows zoomed out.
    void setRegionBudget(int64_t cells);

    /// Draws the head as a band (rows the queries, columns how far back each looks: the key
    /// `column` tokens before the query) instead of the square (columns the keys). A band has
    /// no grid from the run: it is computed at every zoom, the whole text included.
    void setBand(bool band);
    bool band() const { return m_band; }

    const std::shared_ptr<const ModelRun> &run() const { return m_run; }
    int layer() const { return m_layer; }
    int head() const { return m_head; }
    const TileViewport &viewport() const { return m_viewport; }
    /// Shows queries [q0, q0 + span) by keys [k0, k0 + span), as a zoom would.
    void showRegion(double q0, double k0, double span);
    /// The square the matrix is drawn in, in widget pixels.
    QRectF square() const;
    /// The (query, column) cell under `pixel`, if any: the column is the key, or in a band
    /// the distance back.
    std::optional<std::pair<int64_t, int64_t>> cellAt(QPointF pixel) const;
    /// The key of cell (query, column) as drawn now; negative where a band's distance reaches
    /// before the text.
    int64_t keyAt(int64_t query, int64_t column) const { return m_band ? query - column : column; }
    /// The weight of cell (query, key) computed alone from the tiles; NaN where masked.
    float exactWeight(int64_t query, int64_t key) const;
    /// Every weight of `region` of the pinned head, computed from the tiles; NaN where masked.
    RowMatrix regionWeights(const TileRegion &region) const;
    /// The zoomed picture on screen (empty while the run's grid stands in).
    const TilePicture &picture() const { return m_picture; }
    /// What hovering over `pixel` says (empty off the matrix).
    QString hoverTextAt(QPointF pixel) const;

signals:
    void hoverTextChanged(const QString &text);
    /// A region's picture arrived and is drawn (tests, benchmarks).
    void pictureShown();
    /// colors() changed: a zoomed region's scale, or back to the whole text's.
    void colorsChanged();

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    /// Asks for the region on screen at the pixels' bin size when the run's grid is coarser.
    void refine();
    void viewChanged();
    /// m_shownColors for the picture on screen, and the images in them.
    void recolor();
    /// Forgets the region's picture (and the one being made): the run's grid is drawn alone.
    void dropPicture();
    /// `image` of cells binSize tokens wide from token (k0, q0), clipped to the square.
    void drawCells(QPainter &painter, const QImage &image, double q0, double k0,
                   double binSize) const;
    void drawAxes(QPainter &painter) const;

    std::shared_ptr<const ModelRun> m_run;
    std::shared_ptr<const HeadTiles> m_tiles;
    int m_layer = -1, m_head = -1;
    HeadTiles::Pooling m_pooling = HeadTiles::Pooling::Max;
    bool m_band = false;
    TileColors m_colors;      ///< as given: the whole text's scale
    TileColors m_shownColors; ///< as drawn
    PlotStyle m_style;
    TileViewport m_viewport;
    QImage m_wholeImage; ///< the run's grid of this head (none for a band)
    TilePicture m_picture;
    QImage m_pictureImage;
    NewestInPool<TilePicture> m_maker;
    int64_t m_regionBudget = kRegionCells;
    std::optional<QPointF> m_dragFrom; ///< the pointer's last pixel while dragging
    std::optional<std::pair<int64_t, int64_t>> m_hovered;
};

} // namespace headlens
