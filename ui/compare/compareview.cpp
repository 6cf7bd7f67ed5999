// CompareView: text B's box and Compare button over a grid of three plots per head, scrolled
// down and reflowed to the width.
#include "compare/compareview.h"

#include "compare/modeldivergencepanel.h"
#include "panels/fulltextcombobox.h"
#include "panels/verticalscrollarea.h"
#include "plot/heatmapplot.h"
#include "text/tokenizer.h"
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
    m_change->addItem(tr("another model"), QString::fromStdString(toString(ComparedChange::Model)));
    m_change->setToolTip(tr("What B is: A's text with another text, A's text with one setting "
                            "changed (the seed, K/V heads, RoPE and the mask are the built-in "
                            "layer's), or A's text through another model of the same shape and "
                            "tokenizer (a quantized copy, a fine-tune)."));
    m_textB = new QLineEdit(this);
    m_textB->setObjectName("compareText");
    m_textB->setPlaceholderText(tr("Text B, e.g. the text with one word changed"));
    m_chooseModel = new QPushButton(tr("Choose…"), this);
    m_chooseModel->setObjectName("compareChooseModel");
    m_chooseModel->setToolTip(tr("Pick model B from the models on this computer."));
    m_compare = new QPushButton(tr("Compare"), this);
    m_compare->setObjectName("compareButton");
    bar->addWidget(new QLabel(tr("B is"), this));
    bar->addWidget(m_change);
    bar->addWidget(m_textB, 1);
    bar->addWidget(m_chooseModel);
    bar->addWidget(m_compare);
    layout->addLayout(bar);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    layout->addWidget(m_message);
    // Never sideways: the three plots of a head reflow to fewer columns instead (arrange).
    m_scroll = new VerticalScrollArea(this);
    auto *page = new QWidget(m_scroll);
    auto *pageLayout = new QVBoxLayout(page);
    m_modelPanel = new ModelDivergencePanel(page);
    m_modelPanel->setVisible(false);
    pageLayout->addWidget(m_modelPanel);
    m_grid = new QGridLayout;
    pageLayout->addLayout(m_grid);
    pageLayout->addStretch(1);
    m_scroll->setWidget(page);
    layout->addWidget(m_scroll, 1);
    m_viewport = m_scroll->viewport();
    m_viewport->installEventFilter(this);
    page->installEventFilter(this);
    const auto ask = [this] { emit compareRequested(request()); };
    connect(m_compare, &QPushButton::clicked, this, ask);
    connect(m_textB, &QLineEdit::returnPressed, this, ask);
    connect(m_chooseModel, &QPushButton::clicked, this, &CompareView::chooseModelRequested);
    connect(m_modelPanel, &ModelDivergencePanel::headChosen, this, &CompareView::showHead);
    connect(m_change, qOverload<int>(&QComboBox::activated), this, [this, ask] {
        showChangeInput();
        const ComparisonRequest b = request();
        if (b.change == ComparedChange::Model && m_textB->text().trimmed().isEmpty())
            emit chooseModelRequested(); // no model named yet: the list of them
        else if (b.change != ComparedChange::Text)
            ask(); // nothing to type: the choice is the request
    });
    showChangeInput();
    showHint(tr("Type text B and press Compare, or pick a setting for B to change: B runs with "
                "A's settings, model and ablations but for that one change, and each head of "
                "the traced layer shows A, B and A − B. With a model open, B can be another "
                "model of its shape and tokenizer (a quantized copy, a fine-tune): a map of "
                "every layer's heads shows how far each moved."));
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
    showChangeInput();
}

// One box for B's text and B's model: its words say which it is now.
void CompareView::showChangeInput()
{
    const ComparedChange change = request().change;
    const bool model = change == ComparedChange::Model;
    m_textB->setEnabled(change == ComparedChange::Text || model);
    m_textB->setPlaceholderText(model ? tr("Model B: a folder or a .gguf file of A's shape and "
                                           "tokenizer")
                                      : tr("Text B, e.g. the text with one word changed"));
    m_chooseModel->setVisible(model);
}

void CompareView::setComparison(std::shared_ptr<const ComparedRuns> runs, int batchIndex)
{
    m_runs = std::move(runs);
    if (!m_runs)
        return;
    const int batchA = std::clamp(batchIndex, 0, int(m_runs->a->batch()) - 1);
    // A text B is B's only sequence; with a changed setting B has A's texts, so A's line.
    const int batchB = std::min(batchA, int(m_runs->b->batch()) - 1);
    const bool models = m_runs->modelA && m_runs->modelB;
    m_modelPanel->setVisible(models);
    if (!models) {
        m_layer = -1;
        draw(*m_runs->a, batchA, *m_runs->b, batchB);
        return;
    }
    m_modelPanel->setRuns(*m_runs->modelA, *m_runs->modelB, m_runs->modelHeads);
    // The layer picked on the map stays through edits; at first the traced one.
    const int layers = m_runs->modelA->layers;
    drawLayer(m_layer >= 0 && m_layer < layers ? m_layer : m_runs->modelA->source.layer);
}

void CompareView::draw(const Trace &a, int batchA, const Trace &b, int batchB)
{
    m_comparison.emplace(a, batchA, b, batchB);
    drawRows(TraceReader::queryLabels(a, batchA), TraceReader::keyLabels(a, batchA),
             TraceReader::queryLabels(b, batchB), TraceReader::keyLabels(b, batchB),
             [&a](int head) { return TraceReader::headName(a, head); });
}

void CompareView::drawLayer(int layer)
{
    const ModelRun &a = *m_runs->modelA;
    m_layer = layer;
    m_comparison = HeadComparison::ofLayer(a, *m_runs->modelB, layer);
    QStringList tokens; // the same tokens in both (modelComparisonProblem)
    for (const std::string &token : a.tokens)
        tokens << QString::fromStdString(Tokenizer::displayLabel(token));
    drawRows(tokens, tokens, tokens, tokens,
             [layer](int head) { return tr("L%1 H%2").arg(layer).arg(head + 1); });
    m_modelPanel->setChosen(layer, -1);
}

void CompareView::showHead(int layer, int head)
{
    if (!m_runs || !m_runs->modelA || layer < 0 || layer >= m_runs->modelA->layers || head < 0 ||
        head >= m_runs->modelA->heads)
        return;
    if (layer != m_layer)
        drawLayer(layer);
    m_modelPanel->setChosen(layer, head);
    // After the layouts the new rows asked for, so that the scroll reaches where the row is.
    QMetaObject::invokeMethod(
        this,
        [this, head] {
            if (head < int(m_rows.size()))
                m_scroll->ensureWidgetVisible(m_rows[size_t(head)].a, 0, 0);
        },
        Qt::QueuedConnection);
}

void CompareView::drawRows(const QStringList &rowsA, const QStringList &colsA,
                           const QStringList &rowsB, const QStringList &colsB,
                           const std::function<QString(int)> &headName)
{
    const HeadComparison &c = *m_comparison;
    makeRows(c.heads());
    const double top = largestWeight(c);
    for (int head = 0; head < c.heads(); ++head) {
        const Row &row = m_rows[size_t(head)];
        const QString name = headName(head);
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
    m_modelPanel->setPlotStyle(style);
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
