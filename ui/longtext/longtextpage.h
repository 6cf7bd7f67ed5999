// LongTextPage: the "Long text" tab: a text kept as tiles, every head of a layer and one zoomed.
#pragma once

#include "attention/headtiles.h"
#include "longtext/tilecolors.h"
#include "model/modelrun.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace headlens {

class RowProfilePlot;
class TiledHeadsGrid;
class TiledHeadView;

/// What the window shows of a run too long for its matrices (ModelRun::tiled): what was kept
/// and why, a layer's heads (TiledHeadsGrid), the pinned head from the whole text down to
/// single cells (TiledHeadView) and its queries' profiles (RowProfilePlot). One colour scale
/// per layer (the View menu's), shared by the grid and every zoom of the pinned head.
class LongTextPage : public QWidget
{
    Q_OBJECT
public:
    explicit LongTextPage(QWidget *parent = nullptr);

    /// A tiled run: layer 0, head 0 pinned, the whole text shown; null forgets the last one.
    void setRun(std::shared_ptr<const ModelRun> run);
    const std::shared_ptr<const ModelRun> &run() const { return m_run; }
    void setLayer(int layer);
    void pinHead(int head);
    void setPooling(HeadTiles::Pooling pooling);
    /// The pinned head as a band (query by distance back) or as the square; a band only for a
    /// causal model's run, whose queries look back alone.
    void setBand(bool band);
    void setPlotStyle(const PlotStyle &style);
    /// The most tokens a side of the region on screen may span for saveRegion to write every
    /// weight: 2,048 x 2,048 float32 weights are 16 MiB, not the whole (n, n) of a long text.
    static constexpr int64_t kSavedSide = 2048;
    /// The file name saveRegion suggests: "layer3_head5_q16384-17408_k15360-16384.npy", or
    /// for the cells drawn "layer3_head5_q0-32768_k0-32768_max93.npy" (RegionExport).
    QString regionFileName() const;
    /// Writes the pinned head over the region on screen as a float32 .npy at `path`,
    /// atomically: every weight, exact (NaN where masked), of a square region of at most
    /// kSavedSide tokens a side; else the cells drawn (RegionExport). Returns what went wrong,
    /// or an empty string.
    QString saveRegion(const QString &path) const;

    /// Writes the pinned head as drawn now (its square, axes and colours) as a PNG at `path`,
    /// atomically. Returns what went wrong, or an empty string.
    QString savePicture(const QString &path) const;
    /// Asks where, then savePicture (File > Export view on this tab).
    void chooseAndSavePicture();

    /// The colour of each head of `layer` for `pooling` under the style's colour scale.
    static std::vector<TileColors> colorsOf(const ModelRun &run, int layer,
                                            HeadTiles::Pooling pooling, const PlotStyle &style);

    TiledHeadsGrid *grid() const { return m_grid; }
    TiledHeadView *head() const { return m_head; }
    RowProfilePlot *profiles() const { return m_profiles; }
    QLabel *summary() const { return m_summary; }
    QLabel *legend() const { return m_legend; }

signals:
    void hoverTextChanged(const QString &text);

private:
    void showLayer();
    void showHead();
    void showLegend();
    /// Asks where, then saveRegion; a problem in a message box.
    void chooseAndSaveRegion();

    std::shared_ptr<const ModelRun> m_run;
    int m_layer = 0, m_pinned = 0;
    HeadTiles::Pooling m_pooling = HeadTiles::Pooling::Max;
    PlotStyle m_style;
    QLabel *m_summary;
    QSpinBox *m_layerBox;
    QComboBox *m_poolingBox;
    QComboBox *m_shapeBox; ///< the pinned head as a square or as a band
    QPushButton *m_save;
    QLabel *m_legend;
    TiledHeadsGrid *m_grid;
    TiledHeadView *m_head;
    RowProfilePlot *m_profiles;
};

} // namespace headlens
