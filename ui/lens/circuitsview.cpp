// CircuitsView: the runner's circuits of the chosen head as two token maps, a chart of singular
// values and a few sentences.
#include "lens/circuitsview.h"

#include "lens/layerheadchoice.h"
#include "lens/lensrunner.h"
#include "plot/axesstyle.h"
#include "plot/headcolors.h"
#include "plot/heatmapplot.h"
#include "views/differenceheatmap.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace headlens {

namespace {

/// Scores of either sign: a diverging map, white at 0, red for a preference (or a logit raised)
/// and blue for the opposite, on a range symmetric about 0.
DifferenceHeatmap *circuitPlot(const QString &name, const QString &rows, const QString &cols,
                               const QString &scale)
{
    auto *plot = new DifferenceHeatmap;
    plot->setObjectName(name);
    plot->setColorScaleVisible(true);
    plot->setColorScaleLabel(scale);
    plot->setAxisTitles(rows, cols);
    plot->setMinimumSize(240, 240); // two side by side; labels thin out as room asks
    plot->hide();
    return plot;
}

/// A token's label as the maps and lists write it: in brackets, so a space shows.
QString bracketed(const std::string &label)
{
    return QStringLiteral("[%1]").arg(QString::fromStdString(label));
}

} // namespace

CircuitsView::CircuitsView(QWidget *parent) : RunAnalysisView(Reads::UnchangedModel, parent)
{
    setObjectName(QStringLiteral("circuitsView"));
    auto *intro = new QLabel(
        tr("<b>What a head reads and writes</b>, from its weights alone (Elhage et al. 2021; "
           "biases left out). <i>QK</i>: W<sub>Q</sub>W<sub>K</sub><sup>T</sup> between two "
           "tokens' embeddings: how much a query token prefers a key token before any context. "
           "<i>OV</i>: a token's embedding through W<sub>V</sub>W<sub>O</sub> and the "
           "unembedding: what attending to it adds to each token's logit; a diagonal that "
           "stands out is a head that copies. The singular values say how many directions each "
           "circuit uses (at most d<sub>k</sub>)."));
    intro->setWordWrap(true);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("circuitsStatus"));
    m_status->setWordWrap(true);
    m_choice = new LayerHeadChoice(QStringLiteral("circuits"), false);
    m_notes = new QLabel;
    m_notes->setObjectName(QStringLiteral("circuitsNotes"));
    m_notes->setWordWrap(true);
    m_qk = circuitPlot(QStringLiteral("circuitsQk"), tr("query token"), tr("key token"),
                       tr("QK score"));
    m_ov = circuitPlot(QStringLiteral("circuitsOv"), tr("token attended to"), tr("logit raised"),
                       tr("logit added"));
    m_values = new QCustomPlot;
    m_values->setObjectName(QStringLiteral("circuitsSingularValues"));
    m_values->setMinimumSize(220, 200);
    m_values->xAxis->setLabel(tr("rank"));
    m_values->yAxis->setLabel(tr("singular value"));
    m_values->legend->setVisible(true);
    m_values->legend->setBrush(Qt::NoBrush); // the theme's background shows through
    m_values->legend->setBorderPen(Qt::NoPen);
    AxesStyle::placeLegendBelow(*m_values);
    m_values->hide();
    m_lists = new QLabel;
    m_lists->setObjectName(QStringLiteral("circuitsTokens"));
    m_lists->setWordWrap(true);
    m_lists->setTextFormat(Qt::RichText);
    auto *plots = new QHBoxLayout;
    plots->addWidget(m_qk, 2);
    plots->addWidget(m_ov, 2);
    plots->addWidget(m_values, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_choice);
    layout->addWidget(m_status);
    layout->addWidget(m_notes);
    layout->addLayout(plots, 1);
    layout->addWidget(m_lists);

    connect(runner(), &LensRunner::circuitsReady, this, &CircuitsView::setCircuits);
    connect(runner(), &LensRunner::circuitsFailed, this, [this](const QString &message) {
        m_status->setText(message);
        m_notes->clear();
        m_circuits.reset();
        draw();
    });
    connect(m_choice, &LayerHeadChoice::chosen, this, &CircuitsView::chooseHead);
}

void CircuitsView::runChanged()
{
    m_circuits.reset();
    m_notes->clear();
    // The first run's head: head 1 of the layer traced (the one the Heads view shows).
    m_choice->fill(run() ? run()->layers : 0, run() ? run()->heads : 0,
                   run() ? run()->source.layer : 0);
    draw();
}

void CircuitsView::start()
{
    const int layer = m_choice->layer(), head = m_choice->head();
    m_status->setText(tr("Reading head %1.%2's weights…").arg(layer).arg(head + 1));
    runner()->startCircuits(run(), layer, head);
}

void CircuitsView::chooseHead(int layer, int head)
{
    if (!m_choice->choose(layer, head))
        return;
    if (m_circuits && m_circuits->layer == layer && m_circuits->head == head)
        return;
    m_circuits.reset();
    m_notes->clear();
    draw();
    recompute();
}

void CircuitsView::setCircuits(std::shared_ptr<const HeadCircuits> circuits)
{
    m_circuits = std::move(circuits);
    markAnalysed();
    m_status->clear();
    const HeadCircuits &c = *m_circuits;
    QStringList notes;
    notes << tr("Head %1.%2: copying score %3 (of the OV map's eigenvalues λ, Σ Re λ / Σ |λ|: "
                "near 1 for a head that raises the token it attends to, near −1 for one that "
                "lowers it), on %4 tokens: the text's, then the stories'.")
                 .arg(c.layer)
                 .arg(c.head + 1)
                 .arg(c.circuit.copyingScore, 0, 'f', 3)
                 .arg(c.tokens.size());
    if (c.sharedBy > 1)
        notes << tr("It reads key/value head %1, shared by %2 query heads (grouped-query "
                    "attention): their QK circuits share W<sub>K</sub>, their OV circuits "
                    "W<sub>V</sub>.")
                     .arg(c.keyValueHead + 1)
                     .arg(c.sharedBy);
    if (c.rotary)
        notes << tr("RoPE rotates queries and keys by their positions: this QK map is the "
                    "content part alone, as if query and key were at the same position.");
    m_notes->setText(notes.join(' '));
    draw();
}

int CircuitsView::textTokens() const
{
    return m_circuits && run() ? m_circuits->textTokenCount(run()->tokenIds, kMaxTokens) : 0;
}

RowMatrix CircuitsView::qkShown() const
{
    const int n = textTokens();
    return n ? RowMatrix(m_circuits->circuit.qkTokens.topLeftCorner(n, n)) : RowMatrix();
}

RowMatrix CircuitsView::ovShown() const
{
    const int n = textTokens();
    return n ? RowMatrix(m_circuits->circuit.ovTokens.topLeftCorner(n, n)) : RowMatrix();
}

QStringList CircuitsView::tokensShown() const
{
    QStringList labels;
    for (int t = 0; t < textTokens(); ++t)
        labels << bracketed(m_circuits->labels[size_t(t)]);
    return labels;
}

void CircuitsView::draw()
{
    const QStringList tokens = tokensShown();
    const auto show = [&](DifferenceHeatmap *plot, const RowMatrix &values, const QString &title) {
        plot->setVisible(values.size() > 0);
        if (values.size() == 0)
            return;
        plot->setMatrix(values);
        plot->setLabels(tokens, tokens);
        plot->setLargest(double(values.cwiseAbs().maxCoeff()));
        plot->setTitle(title);
        plot->replot(QCustomPlot::rpQueuedReplot);
    };
    const QString head =
        m_circuits ? tr("head %1.%2").arg(m_circuits->layer).arg(m_circuits->head + 1) : QString();
    show(m_qk, qkShown(), tr("QK of %1").arg(head));
    show(m_ov, ovShown(), tr("OV of %1").arg(head));
    drawSingularValues();
    m_lists->setText(tokenLists());
}

void CircuitsView::drawSingularValues()
{
    m_values->clearGraphs();
    m_values->setVisible(bool(m_circuits));
    if (!m_circuits)
        return;
    const auto add = [this](const std::vector<double> &values, const QString &name, int hue) {
        QVector<double> ranks(int(values.size())), ys(int(values.size()));
        for (int k = 0; k < int(values.size()); ++k) {
            ranks[k] = k + 1;
            ys[k] = values[size_t(k)];
        }
        QCPGraph *graph = m_values->addGraph();
        graph->setName(name);
        graph->setData(ranks, ys, true);
        graph->setPen(QPen(HeadColors::color(hue, m_style.dark), 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    };
    add(m_circuits->circuit.qkSingularValues, tr("QK"), 0);
    add(m_circuits->circuit.ovSingularValues, tr("OV"), 1);
    AxesStyle::apply(*m_values, m_style, 8.0);
    m_values->rescaleAxes();
    const QCPRange x = m_values->xAxis->range(), y = m_values->yAxis->range();
    m_values->xAxis->setRange(x.lower - 0.5, x.upper + 0.5);
    m_values->yAxis->setRange(0.0, y.upper * 1.1);
    m_values->replot(QCustomPlot::rpQueuedReplot);
}

QString CircuitsView::tokenLists() const
{
    if (!m_circuits)
        return QString();
    const HeadCircuits &c = *m_circuits;
    const RowMatrix &qk = c.circuit.qkTokens;
    std::vector<Eigen::Index> order(size_t(qk.size()));
    std::iota(order.begin(), order.end(), 0);
    const size_t top = std::min(order.size(), size_t(kListedPairs));
    std::partial_sort(
        order.begin(), order.begin() + long(top), order.end(),
        [&qk](Eigen::Index a, Eigen::Index b) { return qk.data()[a] > qk.data()[b]; });
    QStringList pairs;
    for (size_t k = 0; k < top; ++k)
        pairs << tr("%1→%2 %3")
                     .arg(bracketed(c.labels[size_t(order[k] / qk.cols())]).toHtmlEscaped(),
                          bracketed(c.labels[size_t(order[k] % qk.cols())]).toHtmlEscaped())
                     .arg(qk.data()[order[k]], 0, 'g', 3);
    // What attending to each of the text's tokens raises most, among every token read.
    const RowMatrix &ov = c.circuit.ovTokens;
    QStringList raised;
    for (int s = 0; s < textTokens(); ++s) {
        Eigen::Index best = 0;
        ov.row(s).maxCoeff(&best);
        raised << tr("%1→%2").arg(bracketed(c.labels[size_t(s)]).toHtmlEscaped(),
                                  bracketed(c.labels[size_t(best)]).toHtmlEscaped());
    }
    return tr("<b>QK</b>, the query → key pairs it scores highest: %1<br><b>OV</b>, the token "
              "attending to each of the text's tokens raises most: %2")
        .arg(pairs.join(QStringLiteral(" · ")), raised.join(QStringLiteral(" · ")));
}

void CircuitsView::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    m_qk->setPlotStyle(style, false);
    m_ov->setPlotStyle(style, false);
    drawSingularValues();
}

QComboBox *CircuitsView::layerChoice() const
{
    return m_choice->layerBox();
}

QComboBox *CircuitsView::headChoice() const
{
    return m_choice->headBox();
}

QString CircuitsView::status() const
{
    return m_status->text();
}

QString CircuitsView::notes() const
{
    return m_notes->text();
}

} // namespace headlens
