// TensorGallery: slices the chosen tensor with TensorSlicer and refills reused HeatmapPlots.
#include "pipeline/tensorgallery.h"

#include "attention/maskreason.h"
#include "panels/fulltextcombobox.h"
#include "plot/colorrange.h"
#include "plot/headcolors.h"
#include "plot/heatmapplot.h"
#include "views/tileroom.h"
#include "views/tracereader.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace headlens {

namespace {

/// "head 5 · K/V 2" for a query head's panel, "K/V head 2 · heads 5–8" for a K/V head's;
/// ALiBi's panels add the head's slope m, read back from its bias -m (i - j) at i = 1, j = 0.
QString panelName(const Trace &trace, const TensorPanels &panels, int index, TraceKey key)
{
    if (key == keys::alibiBias && panels.panels[size_t(index)].rows() > 1)
        return QObject::tr("%1 · m %2")
            .arg(TraceReader::headName(trace, index))
            .arg(-double(panels.panels[size_t(index)](1, 0)), 0, 'g', 3);
    if (panels.headAxis != "h_kv")
        return TraceReader::headName(trace, index);
    const int group = trace.heads() / std::max(trace.config.kvHeadCount(), 1);
    return group <= 1 ? QObject::tr("K/V head %1").arg(index + 1)
                      : QObject::tr("K/V head %1 · heads %2–%3")
                            .arg(index + 1)
                            .arg(index * group + 1)
                            .arg((index + 1) * group);
}

} // namespace

TensorGallery::TensorGallery(QWidget *parent)
    : QWidget(parent), m_images(this, [this](const GalleryImages &images) { draw(images); })
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    // Wide enough for "k_repeated" and "mask_reason" at the current font, not for every name:
    // the sentence beside it must keep to two lines at 1280 x 720.
    m_choice = new FullTextComboBox(12, this);
    m_choice->setToolTip(tr("Which of this step's tensors to draw"));
    m_meaning = new QLabel(this);
    m_meaning->setWordWrap(true);
    top->addWidget(m_choice);
    top->addWidget(m_meaning, 1);
    // Its width can change after its text (the list beside it takes the width of the step's
    // tensor names): fitted again then, so its height is always its text's at its width.
    m_meaning->installEventFilter(this);
    m_host = new QWidget(this);
    m_grid = new QGridLayout(m_host);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(4);
    m_grid->setAlignment(Qt::AlignTop | Qt::AlignLeft); // panels of the sizes arrange() gives
    layout->addLayout(top);
    layout->addWidget(m_host, 1);
    connect(m_choice, &QComboBox::currentIndexChanged, this, &TensorGallery::refill);
}

void TensorGallery::setStep(std::shared_ptr<const Trace> trace, int batch, const TraceStep &step)
{
    m_trace = std::move(trace);
    m_batch = batch;
    QSignalBlocker blocker(m_choice);
    m_choice->clear();
    m_keys.clear();
    for (const auto *keys : {&step.outputs, &step.inputs})
        for (const TraceKey &key : *keys)
            if (m_trace->hasTensor(key) &&
                std::find(m_keys.begin(), m_keys.end(), key) == m_keys.end()) {
                m_keys.push_back(key);
                m_choice->addItem(QString::fromStdString(key.str()));
            }
    m_choice->setCurrentIndex(0);
    refill();
}

void TensorGallery::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    for (HeatmapPlot *plot : m_plots)
        plot->setPlotStyle(style, true);
    QFont f = font();
    f.setPointSizeF(10.0 * style.fontScale);
    m_choice->setFont(f);
    m_meaning->setFont(f);
    refill();
}

QString TensorGallery::currentTensor() const
{
    return m_choice->currentText();
}

TraceKey TensorGallery::currentKey() const
{
    return m_keys.at(size_t(std::max(m_choice->currentIndex(), 0)));
}

int TensorGallery::panelCount() const
{
    return m_visible;
}

void TensorGallery::ensurePlots(int count)
{
    while (int(m_plots.size()) < count) {
        const int head = int(m_plots.size());
        auto *plot = new HeatmapPlot(m_host);
        plot->setPlotStyle(m_style, true);
        plot->setColorScaleVisible(false);
        m_hovered.emplace_back(-1, -1);
        connect(plot, &HeatmapPlot::cellHovered, this,
                [this, head](int row, int col) { showCell(head, row, col); });
        connect(plot, &HeatmapPlot::clicked, this, [this, head] {
            const QPoint cell = m_hovered[size_t(head)];
            if (cell.x() >= 0) // the tensor drawn, which may not be the one asked for yet
                emit cellClicked(QString::fromStdString(m_shown.key.str()), head, cell.x(),
                                 cell.y());
        });
        m_plots.push_back(plot);
    }
    for (int i = 0; i < int(m_plots.size()); ++i)
        m_plots[size_t(i)]->setVisible(i < count);
    m_visible = count;
}

// Labels are thinned when the tokens outnumber the room for them, and only the first column
// has the query tokens: the hover names the cell's row and column in full, with its value.
void TensorGallery::showCell(int head, int row, int col)
{
    m_hovered[size_t(head)] = QPoint(row, col);
    const TensorPanels &shown = *m_shown.shown;
    if (size_t(head) >= shown.panels.size() || !m_shown.madeFrom(m_trace, m_batch, m_shown.key))
        return; // no readout of a trace's panels that are about to be replaced
    const RowMatrix &m = shown.panels[size_t(head)];
    if (row < 0 || col < 0 || row >= m.rows() || col >= m.cols())
        return;
    const float value = m(row, col);
    QString text =
        shown.perHead ? panelName(*m_trace, shown, head, m_shown.key) + " · " : QString();
    text += tr("%1 %2 → %3 %4 · %5")
                .arg(QString::fromStdString(shown.rowsAxis), m_shown.rowLabels.value(row),
                     QString::fromStdString(shown.colsAxis), m_shown.colLabels.value(col),
                     std::isnan(value) ? tr("masked") : QString::number(double(value), 'g', 4));
    if (m_shown.key == keys::maskReason)
        text +=
            value > 0
                ? tr(" · hidden by %1").arg(QString::fromStdString(describeMaskReason(int(value))))
                : tr(" · visible");
    QToolTip::showText(QCursor::pos(), text, m_plots[size_t(head)]);
}

bool TensorGallery::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_meaning && event->type() == QEvent::Resize)
        fitMeaning(); // the same width gives the same height: no loop
    if (watched == m_watchedPage &&
        (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest))
        arrangeSoon(); // the arrangement depends on the height, not the other way round
    return QWidget::eventFilter(watched, event);
}

void TensorGallery::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitMeaning();
    arrange();
}

// The height the panels have on screen under what is above them in the page (the step's
// shapes, its diagram and its sentence), when the page is scrolled to its top: the panels
// are arranged to fit it, so the diagram and the heatmaps are seen together.
int TensorGallery::heightOnScreen() const
{
    if (QScrollArea *scroll = page()) {
        const int top = m_host->mapTo(scroll->widget(), QPoint()).y();
        return std::max(scroll->viewport()->height() - top - 4, kLeastHeight);
    }
    return std::max(m_host->height(), kLeastHeight);
}

QScrollArea *TensorGallery::page() const
{
    for (QWidget *w = parentWidget(); w; w = w->parentWidget()) {
        auto *scroll = qobject_cast<QScrollArea *>(w);
        if (scroll && scroll->widget())
            return scroll;
    }
    return nullptr;
}

// What is above the panels in the page (the header, the sentence) grows and shrinks with each
// step and resize: the page's content laid out again may leave them another height on screen.
void TensorGallery::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (QScrollArea *scroll = page(); scroll && scroll->widget() != m_watchedPage) {
        m_watchedPage = scroll->widget();
        m_watchedPage->installEventFilter(this);
    }
    arrangeSoon();
}

void TensorGallery::arrangeSoon()
{
    if (m_arrangePending)
        return;
    m_arrangePending = true;
    QTimer::singleShot(0, this, [this] {
        m_arrangePending = false;
        arrange();
    });
}

// As the heads grid arranges its heads: the panels share their token labels (the first column
// names the rows, the bottom panels the columns), every cell of one size; every label where
// the room allows, else (up to 12 panels) every other in cells of at least 8 px, all on
// screen; else every label, and the page scrolls. Panels far from square (a (n, d_k) slice)
// get square tiles, their cells stretched.
void TensorGallery::arrange()
{
    if (m_visible == 0 || !m_shown.shown || m_shown.shown->panels.empty())
        return;
    std::vector<HeatmapPlot *> plots(m_plots.begin(), m_plots.begin() + m_visible);
    const RowMatrix &first = m_shown.shown->panels.front();
    const int rows = std::max(int(first.rows()), 1);
    const bool square = std::max<Eigen::Index>(first.rows(), first.cols()) <=
                        HeatmapPlot::kMaxSquareAspect *
                            std::max<Eigen::Index>(std::min(first.rows(), first.cols()), 1);
    const int cols = square ? std::max(int(first.cols()), 1) : rows;
    const QSize area(std::max(m_host->width(), 100), heightOnScreen());
    const double smallest = double(kLeastSide) / std::max(rows, cols);
    const double labelled =
        std::max(rows <= HeatmapPlot::kMaxLabelledRows
                     ? HeatmapPlot::labelPitch(plots.front()->yAxis->tickLabelFont())
                     : 0.0,
                 smallest);
    for (int pass = 0; pass < 3; ++pass) {
        const TileRoom room = TileRoom::measure(plots);
        const auto fit = [&](double minCell) {
            return GridArrangement::best(m_visible, 0, area, rows, cols, room, minCell,
                                         m_grid->spacing());
        };
        GridArrangement best = fit(labelled);
        if (!best.fits && m_visible <= kAllAtOnce) {
            const GridArrangement readable = fit(std::max(kReadableCell, smallest));
            if (readable.fits)
                best = readable;
        }
        if (best == m_arrangement && room == m_placedRoom)
            return;
        m_arrangement = best;
        m_placedRoom = room;
        for (HeatmapPlot *plot : m_plots)
            m_grid->removeWidget(plot);
        for (int i = 0; i < m_visible; ++i) {
            HeatmapPlot *plot = plots[size_t(i)];
            const bool namesRows = best.drawsRowLabels(i);
            const bool namesColumns = best.drawsColumnLabels(i, m_visible);
            plot->setTickLabelsShown(namesRows, namesColumns);
            plot->setFixedSize(best.tileSize(room.labelled[namesRows][namesColumns], rows, cols));
            m_grid->addWidget(plot, i / best.inner, i % best.inner);
        }
        // Placed now, not at the next event loop turn: a frame of panels at the last step's
        // places drew a head in another's place.
        m_grid->activate();
    }
}

// The wrapped sentence's height at this width is part of the gallery's minimum: counted only
// as one line, it took the room of the heatmaps below, which then drew fewer token labels.
void TensorGallery::fitMeaning()
{
    const int width = m_meaning->width() > 0 ? m_meaning->width() : this->width() / 2;
    // QLabel's heightForWidth() is never below its minimum height: without the reset a longer
    // sentence's three lines (step 14's) stayed for every step after, two lines of text
    // centred in them, and stepping back drew the heatmaps 25 px lower than stepping forward.
    m_meaning->setMinimumHeight(0);
    m_meaning->setMinimumHeight(std::max(0, m_meaning->heightForWidth(width))); // -1: no text
}

void TensorGallery::refill()
{
    if (!m_trace || m_choice->count() == 0) {
        m_images.drop();
        m_shown = GalleryImages();
        ensurePlots(0);
        return;
    }
    const TraceKey key = currentKey();
    if (m_shown.madeFrom(m_trace, m_batch, key)) {
        m_images.drop(); // a job for another tensor would replace what is wanted again
        draw(m_shown);   // the same cells in another style or layout
        return;
    }
    const bool here = GalleryImages::cellsOf(*m_trace, key) <= GalleryImages::kInlineCells;
    m_images.start(
        [trace = m_trace, batch = m_batch, key] { return GalleryImages::make(trace, batch, key); },
        here);
}

void TensorGallery::draw(const GalleryImages &images)
{
    if (!m_trace || m_choice->count() == 0 || !images.madeFrom(m_trace, m_batch, currentKey()))
        return; // made for a tensor that is no longer asked for
    m_shown = images;
    const TraceTensor *t = m_trace->find(images.key);
    const TensorPanels &panels = *images.shown;
    m_meaning->setText(QString("%1 %2 — %3")
                           .arg(QString::fromStdString(t->name()),
                                QString::fromStdString(t->tensor.shape().toString()),
                                QString::fromStdString(t->meaning)));
    fitMeaning();
    ensurePlots(int(panels.panels.size()));
    const bool probabilities = images.isProbabilities();
    if (probabilities) {
        // These panels have no colour bar: the sentence says what the colours span.
        const ColorRange range = ColorRange::of(m_style.colorScale, images.largest, images.shared);
        const QString span = m_style.colorScale == ColorScaleMode::PerHead
                                 ? QString()
                                 : tr(" (%1 to %2)").arg(range.lower).arg(range.upper);
        m_meaning->setText(
            m_meaning->text() +
            tr(". Colours: %1%2").arg(ColorRange::legendTitle(m_style.colorScale), span));
    }
    for (size_t i = 0; i < panels.panels.size(); ++i) {
        HeatmapPlot *plot = m_plots[i];
        const RowMatrix &m = panels.panels[i];
        plot->setPooledMatrix(images.pooled[i], int(m.rows()), int(m.cols()), images.maxCells);
        plot->setLabels(images.rowLabels, images.colLabels);
        plot->setAxisTitles(QString::fromStdString(panels.rowsAxis),
                            QString::fromStdString(panels.colsAxis));
        const bool queryHead = panels.perHead && panels.headAxis == "h";
        plot->setTitle(panels.perHead ? panelName(*m_trace, panels, int(i), t->key)
                                      : QString::fromStdString(t->name()));
        plot->setTitleColor(queryHead ? HeadColors::color(int(i), m_style.dark) : QColor());
        const ColorRange range =
            probabilities
                ? ColorRange::of(m_style.colorScale, images.largest,
                                 m_style.colorScale == ColorScaleMode::PerHead ? images.ranges[i]
                                                                               : images.shared)
                : ColorRange{images.shared.first, images.shared.second};
        plot->setColorRange(range.lower, range.upper);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    arrange();
}

} // namespace headlens
