// HeadScoreTable: a QTableWidget refilled for each result; shades come from the palette.
#include "views/headscoretable.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace headlens {

HeadScoreTable::HeadScoreTable(QWidget *parent) : QWidget(parent)
{
    setObjectName("headScoreTable");
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    m_caption = new QLabel(this);
    m_caption->setObjectName("scoreCaption");
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    m_table = new QTableWidget(this);
    m_table->setObjectName("scoreTable");
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    layout->addWidget(m_caption);
    layout->addWidget(m_table);
    connect(m_table, &QTableWidget::cellClicked, this, &HeadScoreTable::headChosen);
}

QString HeadScoreTable::scoreName(HeadPattern pattern)
{
    switch (pattern) {
    case HeadPattern::PreviousToken:
        return tr("previous-token score");
    case HeadPattern::Induction:
        return tr("induction score");
    case HeadPattern::Antecedent:
        return tr("antecedent score");
    case HeadPattern::Subject:
        return tr("subject score");
    case HeadPattern::Bracket:
        return tr("bracket score");
    }
    return {};
}

bool HeadScoreTable::isStrong(const HeadPatternScores &scores, double score)
{
    const double best = scores.best();
    return score >= kStrongShare * best && score > 2.0 * scores.chance;
}

namespace {

/// What the scores average, for the caption.
QString whatIsScored(const HeadPatternScores &s)
{
    switch (s.pattern) {
    case HeadPattern::PreviousToken:
        return QObject::tr("each head's mean weight on the token before, over %n queries", nullptr,
                           s.count);
    case HeadPattern::Induction:
        return QObject::tr("each head's mean weight, from a token seen before, on the token "
                           "that followed it then, over %n queries",
                           nullptr, s.count);
    default:
        return QObject::tr("each head's share of attention from the source word onto its "
                           "target, over the text's %n %1 relations",
                           nullptr, s.count)
            .arg(QString::fromUtf8(toString(s.pattern)));
    }
}

} // namespace

void HeadScoreTable::setScores(const HeadPatternScores &scores, int shownLayer)
{
    m_caption->setText(tr("%1: %2. Chance (a head spreading evenly) %3; ★ the strongest; "
                          "bold: the layer on the grid. Click a head to show its layer.")
                           .arg(scoreName(scores.pattern), whatIsScored(scores))
                           .arg(scores.chance, 0, 'f', 2));
    m_table->clear();
    m_table->setRowCount(scores.layers);
    m_table->setColumnCount(scores.heads);
    QStringList layers, heads;
    for (int l = 0; l < scores.layers; ++l)
        layers << tr("L%1").arg(l);
    for (int h = 0; h < scores.heads; ++h)
        heads << tr("H%1").arg(h + 1);
    m_table->setVerticalHeaderLabels(layers);
    m_table->setHorizontalHeaderLabels(heads);
    const QColor base = palette().color(QPalette::Base);
    const QColor high = palette().color(QPalette::Highlight);
    for (int l = 0; l < scores.layers; ++l)
        for (int h = 0; h < scores.heads; ++h) {
            const double s = scores.score(l, h);
            auto *item = new QTableWidgetItem(cellTextOf(scores, s));
            item->setTextAlignment(Qt::AlignCenter);
            // Shaded by the score itself (0 to 1), so two texts' tables read alike.
            const double t = std::clamp(s, 0.0, 1.0) * 0.7;
            item->setBackground(QColor::fromRgbF(float(base.redF() * (1 - t) + high.redF() * t),
                                                 float(base.greenF() * (1 - t) + high.greenF() * t),
                                                 float(base.blueF() * (1 - t) + high.blueF() * t)));
            item->setForeground(t > 0.45 ? palette().color(QPalette::HighlightedText)
                                         : palette().color(QPalette::Text));
            QFont font = item->font();
            font.setBold(l == shownLayer);
            item->setFont(font);
            item->setToolTip(tr("layer %1, head %2: %3 %4 (chance %5)")
                                 .arg(l)
                                 .arg(h + 1)
                                 .arg(scoreName(scores.pattern))
                                 .arg(s, 0, 'f', 3)
                                 .arg(scores.chance, 0, 'f', 3));
            m_table->setItem(l, h, item);
        }
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    // Every head's column in view (up to half a 1280-pixel screen's width, then it scrolls): the
    // splitter gives the column beside the grid no less, and the caption wraps to it.
    // Measured from the hints: a table not shown yet has no header width.
    int width = m_table->verticalHeader()->sizeHint().width() + 2 * m_table->frameWidth() + 4;
    const QAbstractItemView *view = m_table; // sizeHintForColumn is public here
    for (int h = 0; h < scores.heads; ++h)
        width += std::max(m_table->columnWidth(h), view->sizeHintForColumn(h));
    setMinimumWidth(std::clamp(width, kNarrowest, kWidestTable));
}

QString HeadScoreTable::cellTextOf(const HeadPatternScores &scores, double score)
{
    return (isStrong(scores, score) ? QStringLiteral("★") : QString()) +
           QString::number(score, 'f', 2);
}

QString HeadScoreTable::caption() const
{
    return m_caption->text();
}

QString HeadScoreTable::cellText(int layer, int head) const
{
    const QTableWidgetItem *item = m_table->item(layer, head);
    return item ? item->text() : QString();
}

} // namespace headlens
