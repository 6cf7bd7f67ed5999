// CompareView: text B's box and Compare button over a grid of three plots per head, scrolled
// down and reflowed to the width.
#include "compare/compareview.h"

#include "panels/fulltextcombobox.h"
#include "panels/verticalscrollarea.h"
#include "plot/heatmapplot.h"
#include "views/differenceheatmap.h"
#include "views/tracereader.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace headlens {

namespace {

// A plot is never smaller than this either way; with token labels it asks for the room that
// draws every one (HeatmapPlot::minimumSizeHint). A fixed minimum height of 260 px overrode
// that hint, so in presentation mode the rows showed every other token.
constexpr int kSmallestPlotSide = 220;

// The largest weight of A and B: one colour range for both, so equal colours mean equal weights.
double largestWeight(const HeadComparison &c)
{
    double top = 0.0;
    for (int head = 0; head < c.heads(); ++head) {
        for (const RowMatrix *m : {&c.a(head), &c.b(head)}) {
            if (m->size() > 0)
                top = std::max(top, double(m->array().isNaN().select(0.0f, m->array()).maxCoeff()));
        }
    }
    return top > 0.0 ? top : 1.0;
}

} // namespace

CompareView::CompareView(QWidget *parent) : QWidget(parent)
{
    setObjectName("compareView");
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_change = new FullTextComboBox(24, this);
    m_change->setObjectName("compareChange");
    // The data is the change's name (toString): what --compare-change takes.
    m_change->addItem(tr("another text"), QString::fromStdString(toString(ComparedChange::Text)));
    m_change->addItem(tr("the next seed"),
                      QString::fromStdString(toString(ComparedChange::NextSeed)));
    m_change->addItem(tr("one K/V head (MQA)"),
                      QString::fromStdString(toString(ComparedChange::OneKvHead)));
    m_change->addItem(tr("RoPE on/off"),
                      QString::fromStdString(toString(ComparedChange::RopeToggled)));
    m_change->addItem(tr("causal mask on/off"),
                      QString::fromStdString(toString(ComparedChange::CausalFlip)));
    m_change->addItem(tr("without the ablations"),
                      QString::fromStdString(toString(ComparedChange::NoAblations)));
    m_change->setToolTip(tr("What B is: A's text with another text, or A's text with one "
                            "setting changed (the seed, K/V heads, RoPE and the mask are the "
                            "built-in layer's)."));
    m_textB = new QLineEdit(this);
    m_textB->setObjectName("compareText");
    m_textB->setPlaceholderText(tr("Text B, e.g. the text with one word changed"));
    m_compare = new QPushButton(tr("Compare"), this);
    m_compare->setObjectName("compareButton");
    bar->addWidget(new QLabel(tr("B is"), this));
    bar->addWidget(m_change);
    bar->addWidget(m_textB, 1);
    bar->addWidget(m_compare);
    layout->addLayout(bar);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    layout->addWidget(m_message);
    // Never sideways: the three plots of a head reflow to fewer columns instead (arrange).
    auto *scroll = new VerticalScrollArea(this);
    auto *page = new QWidget(scroll);
    m_grid = new QGridLayout(page);
    scroll->setWidget(page);
    layout->addWidget(scroll, 1);
    m_viewport = scroll->viewport();
    m_viewport->installEventFilter(this);
    page->installEventFilter(this);
    const auto ask = [this] { emit compareRequested(request()); };
    connect(m_compare, &QPushButton::clicked, this, ask);
    connect(m_textB, &QLineEdit::returnPressed, this, ask);
    connect(m_change, qOverload<int>(&QComboBox::activated), this, [this, ask] {
        m_textB->setEnabled(request().change == ComparedChange::Text);
        if (request().change != ComparedChange::Text)
            ask(); // nothing to type: the choice is the request
    });
    showHint(tr("Type text B and press Compare, or pick a setting for B to change: B runs with "
                "A's settings, model and ablations but for that one change, and each head of "
                "the traced layer shows A, B and A − B."));
}

QString CompareView::textB() const
{
    return m_textB->text();
}

void CompareView::setTextB(const QString &text)
{
    m_textB->setText(text);
    // setText() leaves the cursor at the end, so a text longer than the box showed its tail
    // ("…because it broke"): the start says which text B is.
    m_textB->setCursorPosition(0);
}

ComparisonRequest CompareView::request() const
{
    const auto change = comparedChangeFromString(m_change->currentData().toString().toStdString());
    return {change.value_or(ComparedChange::Text), m_textB->text().toStdString()};
}

void CompareView::setChange(ComparedChange change)
{
    m_change->setCurrentIndex(m_change->findData(QString::fromStdString(toString(change))));
    m_textB->setEnabled(change == ComparedChange::Text);
}

void CompareView::setComparison(std::shared_ptr<const ComparedRuns> runs, int batchIndex)
{
    m_runs = std::move(runs);
    if (!m_runs)
        return;
    const int batchA = std::clamp(batchIndex, 0, int(m_runs->a->batch()) - 1);
    // A text B is B's only sequence; with a changed setting B has A's texts, so A's line.
    const int batchB = std::min(batchA, int(m_runs->b->batch()) - 1);
    draw(*m_runs->a, batchA, *m_runs->b, batchB);
}

void CompareView::draw(const Trace &a, int batchA, const Trace &b, int batchB)
{
    m_comparison.emplace(a, batchA, b, batchB);
    const HeadComparison &c = *m_comparison;
    makeRows(c.heads());
    const double top = largestWeight(c);
    const QStringList rowsA = TraceReader::queryLabels(a, batchA);
    const QStringList colsA = TraceReader::keyLabels(a, batchA);
    const QStringList rowsB = TraceReader::queryLabels(b, batchB);
    const QStringList colsB = TraceReader::keyLabels(b, batchB);
    for (int head = 0; head < c.heads(); ++head) {
        const Row &row = m_rows[size_t(head)];
        const QString name = TraceReader::headName(a, head);
        row.a->setMatrix(c.a(head));
        row.a->setLabels(rowsA, colsA);
        row.a->setTitle(tr("%1 · A").arg(name));
        row.a->setColorRange(0.0, top);
        row.b->setMatrix(c.b(head));
        row.b->setLabels(rowsB, colsB);
        row.b->setTitle(tr("%1 · B").arg(name));
        row.b->setColorRange(0.0, top);
        row.difference->setVisible(c.comparable());
        if (!c.comparable())
            continue;
        const HeadDifference &d = c.stats(head);
        row.difference->setMatrix(c.difference(head));
        row.difference->setLabels(rowsA, colsA);
        row.difference->setLargest(c.largest());
        row.difference->setTitle(tr("%1 · A − B\nmax|A−B| %2 · JS %3")
                                     .arg(name)
                                     .arg(d.largest, 0, 'f', 3)
                                     .arg(d.divergence, 0, 'f', 3));
        row.difference->setTitleToolTip(
            tr("max|A−B|: the largest change of one weight. JS: the Jensen-Shannon divergence "
               "of the two rows, averaged over the queries (0 = alike, ln 2 ≈ 0.693 = no key "
               "in common)."));
    }
    m_message->setText(c.comparable() ? tr("A: the text and settings on the left · B: %1 · red "
                                           "where A attends more, blue where B does.")
                                            .arg(m_runs ? m_runs->description : QString())
                                      : c.problem());
    arrange(true); // the labels set the plots' minimum sizes
}

void CompareView::makeRows(int heads)
{
    while (int(m_rows.size()) > heads) {
        const Row row = m_rows.back();
        m_rows.pop_back();
        delete row.a;
        delete row.b;
        delete row.difference;
    }
    QWidget *page = m_grid->parentWidget();
    while (int(m_rows.size()) < heads) {
        Row row{new HeatmapPlot(page), new HeatmapPlot(page), new DifferenceHeatmap(page)};
        for (HeatmapPlot *plot : {row.a, row.b, static_cast<HeatmapPlot *>(row.difference)})
            plot->setSmallestSide(kSmallestPlotSide);
        row.a->setPlotStyle(m_style, true);
        row.b->setPlotStyle(m_style, true);
        row.difference->setPlotStyle(m_style, true);
        m_rows.push_back(row);
    }
}

std::vector<HeatmapPlot *> CompareView::plotsOf(const Row &row) const
{
    std::vector<HeatmapPlot *> plots{row.a, row.b};
    if (m_comparison && m_comparison->comparable())
        plots.push_back(row.difference);
    return plots;
}

// The widest head's plots at their minimum width, side by side as far as the scroll area's
// width holds them: three columns, or A and B with A − B below them, or one column.
int CompareView::columnsThatFit() const
{
    const int room =
        m_viewport->width() - m_grid->contentsMargins().left() - m_grid->contentsMargins().right();
    const int spacing = m_grid->horizontalSpacing();
    for (int columns = 3; columns > 1; --columns) {
        bool fits = true;
        for (const Row &row : m_rows) {
            const std::vector<HeatmapPlot *> plots = plotsOf(row);
            // Column c holds plots c, c + columns, ...: its width is the widest of them.
            int need = spacing * (columns - 1);
            for (int c = 0; c < columns; ++c) {
                int widest = 0;
                for (size_t i = size_t(c); i < plots.size(); i += size_t(columns))
                    widest = std::max(widest, plots[i]->minimumSizeHint().width());
                need += widest;
            }
            fits = fits && need <= room;
        }
        if (fits)
            return columns;
    }
    return 1;
}

void CompareView::arrange(bool force)
{
    const int columns = columnsThatFit();
    if (!force && columns == m_columns)
        return;
    m_columns = columns;
    for (const Row &row : m_rows)
        for (HeatmapPlot *plot : {row.a, row.b, static_cast<HeatmapPlot *>(row.difference)})
            m_grid->removeWidget(plot);
    int gridRow = 0;
    for (const Row &row : m_rows) {
        const std::vector<HeatmapPlot *> plots = plotsOf(row);
        for (size_t i = 0; i < plots.size(); ++i)
            m_grid->addWidget(plots[i], gridRow + int(i) / columns, int(i) % columns);
        gridRow += (int(plots.size()) + columns - 1) / columns;
    }
    for (int c = 0; c < 3; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
}

// The scroll area's width changed, or the plots' minimum sizes did (a font, new labels):
// perhaps another column count fits.
bool CompareView::eventFilter(QObject *watched, QEvent *event)
{
    if ((watched == m_viewport && event->type() == QEvent::Resize) ||
        (watched == m_grid->parentWidget() && event->type() == QEvent::LayoutRequest))
        arrange(false);
    return QWidget::eventFilter(watched, event);
}

void CompareView::showFailed(const QString &message)
{
    m_message->setText(tr("B could not be run: %1").arg(message));
}

void CompareView::showHint(const QString &text)
{
    m_message->setText(text);
}

QString CompareView::message() const
{
    return m_message->text();
}

void CompareView::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    for (const Row &row : m_rows) {
        row.a->setPlotStyle(style, true);
        row.b->setPlotStyle(style, true);
        row.difference->setPlotStyle(style, true);
    }
}

void CompareView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    emit shownChanged(true);
}

void CompareView::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    emit shownChanged(false);
}

} // namespace headlens
