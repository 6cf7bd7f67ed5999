// TiledHeadsGrid: every head of one layer of a long text, each as its run's max-pooled grid.
#pragma once

#include "longtext/tilecolors.h"
#include "model/modelrun.h"

#include <QImage>
#include <QWidget>

#include <memory>
#include <vector>

namespace headlens {

/// The heads of layer `layer` side by side, drawn from the pooled grids the forward pass kept
/// (TiledAttention::pooledMax), pooled again by max to the thumbnail's pixels: bins of the
/// grid's side times a whole factor, so each pixel is exactly the largest weight of its
/// tokens. Drawn at once, however long the text. A click pins a head.
class TiledHeadsGrid : public QWidget
{
    Q_OBJECT
public:
    explicit TiledHeadsGrid(QWidget *parent = nullptr);

    /// Layer `layer` of `run` (a tiled run), head h coloured by colors[h].
    void setLayer(std::shared_ptr<const ModelRun> run, int layer, std::vector<TileColors> colors);
    void setPinned(int head);
    void setPlotStyle(const PlotStyle &style);

    int layer() const { return m_layer; }
    /// Where head `head`'s picture is drawn, in widget pixels.
    QRectF thumbnailRect(int head) const;
    /// Tokens per pixel of the thumbnails: the side of their bins.
    int64_t thumbnailBinSize() const { return m_thumbnailBin; }
    /// The head whose picture or caption is at `pixel`, or -1.
    int headAt(QPointF pixel) const;

signals:
    void headClicked(int head);
    void hoverTextChanged(const QString &text);
    /// The thumbnails were pooled again (a new layer, or a new size): thumbnailBinSize() may
    /// have changed.
    void thumbnailsRebuilt();

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    int columns() const;
    /// The cell (picture and caption) of head `head`.
    QRectF cellRect(int head) const;
    void rebuildImages();

    std::shared_ptr<const ModelRun> m_run;
    int m_layer = -1;
    int m_pinned = -1;
    int m_hovered = -1;
    std::vector<TileColors> m_colors;
    std::vector<QImage> m_images;
    int64_t m_thumbnailBin = 1;
    PlotStyle m_style;
};

} // namespace headlens
