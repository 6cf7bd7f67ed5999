// LongTextPage: the long text's controls above the heads grid, the pinned head and its profiles.
#include "longtext/longtextpage.h"

#include "longtext/regionexport.h"
#include "longtext/rowprofileplot.h"
#include "longtext/tiledheadsgrid.h"
#include "longtext/tiledheadview.h"
#include "model/tiledattention.h"
#include "util/bytesize.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <cmath>

namespace headlens {

LongTextPage::LongTextPage(QWidget *parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_layerBox(new QSpinBox(this)),
      m_poolingBox(new QComboBox(this)), m_shapeBox(new QComboBox(this)),
      m_save(new QPushButton(tr("Save region…"), this)), m_legend(new QLabel(this)),
      m_grid(new TiledHeadsGrid(this)), m_head(new TiledHeadView(this)),
      m_profiles(new RowProfilePlot(this))
{
    m_summary->setWordWrap(true);
    m_legend->setWordWrap(true);
    m_layerBox->setFocusPolicy(Qt::StrongFocus); // the wheel steps it only once clicked
    m_poolingBox->setFocusPolicy(Qt::StrongFocus);
    m_poolingBox->addItem(tr("largest weight"));
    m_poolingBox->addItem(tr("mean weight"));
    m_poolingBox->setToolTip(tr("What a cell shows of the tokens it covers, zoomed out: their "
                                "largest weight (max-pooled) or their mean (mean-pooled)"));

    m_shapeBox->setFocusPolicy(Qt::StrongFocus);
    // Short: the row's width is part of the window's least width (1,280 on a projector).
    m_shapeBox->addItem(tr("square"));
    m_shapeBox->addItem(tr("band"));
    m_shapeBox->setToolTip(tr("The pinned head as its square (each row a query, each column a "
                              "key), or as a band: each row a query, each column how many tokens "
                              "back it looks. A local head is a stripe at the left, a sink the "
                              "diagonal, a sliding window's edge a straight line, at any length "
                              "of text"));

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Layer"), this));
    controls->addWidget(m_layerBox);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Cells show"), this));
    controls->addWidget(m_poolingBox);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Head as"), this));
    controls->addWidget(m_shapeBox);
    controls->addStretch(1);
    // Beside the legend, which wraps: a row of its own would widen the window's least width.
    auto *legendRow = new QHBoxLayout;
    legendRow->addWidget(m_legend, 1);
    m_save->setToolTip(tr("The pinned head over the region on screen as a NumPy .npy file: "
                          "every weight, exact, up to %1 x %1 tokens; beyond, or as a band, "
                          "the cells drawn (the pooling and the tokens a cell covers are in "
                          "the file's name)")
                           .arg(QLocale().toString(qlonglong(kSavedSide))));
    legendRow->addWidget(m_save, 0, Qt::AlignTop);

    // The heads and the pinned head side by side, the profiles over the position below them,
    // as wide as the page (a line per query: the wider, the more positions apart).
    auto *top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(m_grid);
    top->addWidget(m_head);
    top->setSizes({300, 600}); // in proportion: the pinned head is the picture to read
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_profiles);
    split->setSizes({440, 240});

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(controls);
    layout->addLayout(legendRow);
    layout->addWidget(split, 1);

    connect(m_layerBox, &QSpinBox::valueChanged, this, &LongTextPage::setLayer);
    connect(m_poolingBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        setPooling(index == 0 ? HeadTiles::Pooling::Max : HeadTiles::Pooling::Mean);
    });
    connect(m_shapeBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setBand(index == 1); });
    connect(m_grid, &TiledHeadsGrid::headClicked, this, &LongTextPage::pinHead);
    connect(m_save, &QPushButton::clicked, this, &LongTextPage::chooseAndSaveRegion);
    connect(m_grid, &TiledHeadsGrid::hoverTextChanged, this, &LongTextPage::hoverTextChanged);
    connect(m_head, &TiledHeadView::hoverTextChanged, this, &LongTextPage::hoverTextChanged);
    connect(m_grid, &TiledHeadsGrid::thumbnailsRebuilt, this, &LongTextPage::showLegend);
    connect(m_head, &TiledHeadView::colorsChanged, this, &LongTextPage::showLegend);
}

std::vector<TileColors> LongTextPage::colorsOf(const ModelRun &run, int layer,
                                               HeadTiles::Pooling pooling, const PlotStyle &style)
{
    // Shown: 0 to the layer's largest pooled weight rounded up, the grid's scale. The first
    // row of bins is left out: its queries see at most a bin of keys (the first sees one, with
    // weight 1, whatever the head does) and would pin every causal head's scale at 1, as
    // ColorRange::largestInformative leaves out a matrix's rows of one key.
    double largest = 0.0;
    std::vector<std::pair<double, double>> own;
    for (int head = 0; head < run.heads; ++head) {
        const ConstRowMatrixMap grid = run.tiles->pooled(layer, head, pooling);
        const int64_t rows = grid.rows() > 1 && run.causal ? grid.rows() - 1 : grid.rows();
        own.push_back(ColorRange::finiteRangeOf(grid.bottomRows(rows)));
        if (std::isfinite(own.back().second))
            largest = std::max(largest, own.back().second);
    }
    std::vector<TileColors> colors;
    for (int head = 0; head < run.heads; ++head)
        colors.emplace_back(style, ColorRange::of(style.colorScale, largest, own[size_t(head)]));
    return colors;
}

void LongTextPage::setRun(std::shared_ptr<const ModelRun> run)
{
    m_run = run && run->tiled() ? std::move(run) : nullptr;
    if (!m_run) {
        m_grid->setLayer(nullptr, -1, {});
        m_head->setHead(nullptr, -1, -1, {});
        return;
    }
    const TiledAttention &tiles = *m_run->tiles;
    const int64_t n = tiles.tokens();
    const QLocale locale;
    m_summary->setText(
        tr("<b>%1</b>: %2 tokens, kept as tiles. Every head's %2 x %2 weights would take %3; "
           "the run kept each layer's queries and keys and a grid of each head instead, and any "
           "region is computed again when you zoom into it.")
            .arg(QString::fromStdString(m_run->name).toHtmlEscaped(), locale.toString(qlonglong(n)),
                 // As the banner and the CLI say it (formatBytes: 12.2 KiB, 126.0 GiB).
                 QString::fromStdString(formatBytes(
                     double(TiledAttention::matrixBytes(m_run->layers, m_run->heads, n))))));
    m_layerBox->blockSignals(true);
    m_layerBox->setRange(0, m_run->layers - 1);
    m_layerBox->setValue(0);
    m_layerBox->blockSignals(false);
    m_layer = 0;
    m_pinned = 0;
    m_shapeBox->setEnabled(m_run->causal);
    if (!m_run->causal)
        setBand(false);
    showLayer();
}

void LongTextPage::setBand(bool band)
{
    band = band && (!m_run || m_run->causal);
    m_shapeBox->blockSignals(true);
    m_shapeBox->setCurrentIndex(band ? 1 : 0);
    m_shapeBox->blockSignals(false);
    m_head->setBand(band);
    showLegend();
}

void LongTextPage::setLayer(int layer)
{
    if (!m_run || layer < 0 || layer >= m_run->layers)
        return;
    m_layer = layer;
    if (m_layerBox->value() != layer) {
        m_layerBox->blockSignals(true);
        m_layerBox->setValue(layer);
        m_layerBox->blockSignals(false);
    }
    showLayer();
}

void LongTextPage::pinHead(int head)
{
    if (!m_run || head < 0 || head >= m_run->heads)
        return;
    m_pinned = head;
    showHead();
}

void LongTextPage::setPooling(HeadTiles::Pooling pooling)
{
    m_pooling = pooling;
    m_poolingBox->blockSignals(true);
    m_poolingBox->setCurrentIndex(pooling == HeadTiles::Pooling::Max ? 0 : 1);
    m_poolingBox->blockSignals(false);
    if (!m_run)
        return;
    m_head->setPooling(pooling, colorsOf(*m_run, m_layer, m_pooling, m_style)[size_t(m_pinned)]);
    showLegend();
}

void LongTextPage::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    m_grid->setPlotStyle(style);
    m_head->setPlotStyle(style);
    m_profiles->setPlotStyle(style);
    if (m_run)
        showLayer();
}

void LongTextPage::showLayer()
{
    m_grid->setLayer(m_run, m_layer, colorsOf(*m_run, m_layer, HeadTiles::Pooling::Max, m_style));
    showHead();
}

void LongTextPage::showHead()
{
    m_grid->setPinned(m_pinned);
    const std::vector<TileColors> colors = colorsOf(*m_run, m_layer, m_pooling, m_style);
    if (m_head->pooling() != m_pooling) // chosen while there was no run
        m_head->setPooling(m_pooling, colors[size_t(m_pinned)]);
    m_head->setHead(m_run, m_layer, m_pinned, colors[size_t(m_pinned)]);
    m_profiles->setHead(*m_run, m_layer, m_pinned);
    showLegend();
}

void LongTextPage::showLegend()
{
    if (!m_run)
        return;
    const QLocale locale;
    const ColorRange range = m_head->colors().range();
    // The pinned head's cells as drawn now: the picture of the region on screen once it came,
    // the run's grid while it is computed (or where the run's bins are as fine as the pixels).
    const TilePicture &picture = m_head->picture();
    const int64_t bin = picture.empty() ? m_run->tiles->binSize : picture.binSize;
    // Only the numbers change as a picture comes: a legend of another length would wrap
    // otherwise and lay the page out again (the profiles replotted) at every zoom.
    const QString cells =
        bin == 1 ? tr("each cell one weight")
                 : tr("each cell %1 of %2 x %2 tokens; zoom in for finer cells, down to single "
                      "weights")
                       .arg(m_pooling == HeadTiles::Pooling::Max ? tr("the largest weight")
                                                                 : tr("the mean weight"))
                       .arg(locale.toString(qlonglong(bin)));
    const QString pinned =
        m_head->band()
            ? tr("Head %1 on the right as a band, each row a query and each column how far back "
                 "it looks (0 at the left): %2.")
                  .arg(m_pinned)
                  .arg(cells)
            : tr("Head %1 on the right: %2.").arg(m_pinned).arg(cells);
    m_legend->setText(tr("The heads (captions: how far back each looks on average): each pixel "
                         "the largest weight of %1 x %1 tokens. %2 Colours from %3 to %4 (%5).")
                          .arg(locale.toString(qlonglong(m_grid->thumbnailBinSize())))
                          .arg(pinned)
                          .arg(locale.toString(range.lower, 'g', 3))
                          .arg(locale.toString(range.upper, 'g', 3))
                          .arg(ColorRange::legendTitle(m_style.colorScale)));
}

QString LongTextPage::regionFileName() const
{
    return RegionExport(*m_head, m_pooling, kSavedSide).fileName();
}

QString LongTextPage::saveRegion(const QString &path) const
{
    return RegionExport(*m_head, m_pooling, kSavedSide).write(path);
}

void LongTextPage::chooseAndSaveRegion()
{
    // Decided once, before the dialog: the picture may arrive while it is open.
    const RegionExport region(*m_head, m_pooling, kSavedSide);
    if (!region.problem().isEmpty()) {
        QMessageBox::warning(this, tr("Save region"), region.problem());
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the region's weights"),
                                                      region.fileName(), tr("NumPy (*.npy)"));
    if (path.isEmpty())
        return;
    if (const QString problem = region.write(path); !problem.isEmpty())
        QMessageBox::warning(this, tr("Save region"), problem);
}

QString LongTextPage::savePicture(const QString &path) const
{
    if (!m_run)
        return tr("There is no long text to draw.");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !m_head->grab().save(&file, "PNG") || !file.commit())
        return tr("Could not write %1: %2. Choose another folder.").arg(path, file.errorString());
    return {};
}

void LongTextPage::chooseAndSavePicture()
{
    const QString name = regionFileName().replace(".npy", ".png");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export the pinned head"), name, tr("PNG (*.png)"));
    if (path.isEmpty())
        return;
    if (const QString problem = savePicture(path); !problem.isEmpty())
        QMessageBox::warning(this, tr("Export view"), problem);
}

} // namespace headlens
