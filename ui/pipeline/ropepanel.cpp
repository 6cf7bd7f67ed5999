// RopePanel: pickers, the arrows, the numbers as text, and the shift check's answer.
#include "pipeline/ropepanel.h"

#include "attention/rotaryembedding.h"
#include "panels/fulltextcombobox.h"
#include "panels/verticalscrollarea.h"
#include "pipeline/ropearrows.h"
#include "plot/headcolors.h"
#include "text/tokenizer.h"
#include "views/tokennumber.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace headlens {

namespace {

QString vec(QPointF v)
{
    return QString("(%1, %2)").arg(v.x(), 0, 'f', 3).arg(v.y(), 0, 'f', 3);
}

QString radians(double a)
{
    return QString("%1 rad (%2°)").arg(a, 0, 'f', 3).arg(a * 180.0 / M_PI, 0, 'f', 1);
}

double dot(QPointF a, QPointF b)
{
    return a.x() * b.x() + a.y() * b.y();
}

} // namespace

RopePanel::RopePanel(QWidget *parent) : QWidget(parent)
{
    // In a scroll area, as the split panel: at 1280 x 720 the side panel is short.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new VerticalScrollArea(this);
    scroll->setMinimumWidth(300);
    auto *content = new QWidget(scroll);
    scroll->setWidget(content);
    outer->addWidget(scroll);
    auto *layout = new QVBoxLayout(content);
    m_arrows = new RopeArrows(content);
    m_numbers = new QLabel(content);
    m_numbers->setWordWrap(true);
    m_numbers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_shiftResult = new QLabel(content);
    m_shiftResult->setWordWrap(true);
    m_shiftResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addLayout(buildPickers(content));
    layout->addWidget(m_arrows, 1);
    layout->addWidget(m_numbers);
    layout->addLayout(buildShiftRow(content));
    layout->addWidget(m_shiftResult);
}

QLayout *RopePanel::buildPickers(QWidget *content)
{
    m_head = new QSpinBox(content);
    m_head->setObjectName("ropeHead");
    m_head->setToolTip(tr("The query head whose q (and whose K/V head's k) is drawn"));
    m_pair = new QSpinBox(content);
    m_pair->setObjectName("ropePair");
    m_pair->setToolTip(tr("Pair j: the two numbers of each vector that turn together, by "
                          "θ^(-2j/d_k) radians per position"));
    m_query = new FullTextComboBox(24, content);
    m_query->setObjectName("ropeQuery");
    // Tokens count from 1 as everywhere (t_1 … t_n); the angle's position m counts from 0 as
    // the model's position ids do, so token 1 is not turned.
    m_query->setToolTip(tr("The query's token (counted from 1): its position m, counted from 0, "
                           "sets q's angle"));
    m_key = new FullTextComboBox(24, content);
    m_key->setObjectName("ropeKey");
    m_key->setToolTip(tr("The key's token (counted from 1): its position n, counted from 0, "
                         "sets k's angle"));
    auto *pickers = new QGridLayout;
    pickers->addWidget(new QLabel(tr("head"), content), 0, 0);
    pickers->addWidget(m_head, 0, 1);
    pickers->addWidget(new QLabel(tr("pair j"), content), 0, 2);
    pickers->addWidget(m_pair, 0, 3);
    pickers->addWidget(new QLabel(tr("q at"), content), 1, 0);
    pickers->addWidget(m_query, 1, 1);
    pickers->addWidget(new QLabel(tr("k at"), content), 1, 2);
    pickers->addWidget(m_key, 1, 3);
    pickers->setColumnStretch(1, 1);
    pickers->setColumnStretch(3, 1);
    for (QSpinBox *box : {m_head, m_pair})
        connect(box, &QSpinBox::valueChanged, this, &RopePanel::refresh);
    for (QComboBox *box : {m_query, m_key})
        connect(box, &QComboBox::currentIndexChanged, this, &RopePanel::refresh);
    return pickers;
}

QLayout *RopePanel::buildShiftRow(QWidget *content)
{
    m_shift = new QSpinBox(content);
    m_shift->setObjectName("ropeShift");
    m_shift->setRange(0, 1000000);
    m_shift->setValue(100);
    m_shift->setToolTip(tr("Adds s to every position, queries and keys alike, and runs the layer "
                           "again: with RoPE the scores stay the same"));
    connect(m_shift, &QSpinBox::valueChanged, this, [this](int s) {
        m_shownDifference = -1.0;
        m_shiftResult->setText(tr("Running the layer again with every position + %1…").arg(s));
        emit shiftChanged(s);
    });
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Shift every position by s ="), content));
    row->addWidget(m_shift);
    row->addStretch(1);
    return row;
}

void RopePanel::fillTokens(QComboBox *box, bool keys)
{
    const QSignalBlocker blocker(box);
    const int previous = box->currentIndex();
    box->clear();
    const int64_t count =
        keys ? m_trace->input.keyLengthOf(m_batch) : m_trace->input.queryLengthOf(m_batch);
    QStringList entries; // one insertion, as in SplitConcatPanel::setTrace
    entries.reserve(int(count));
    for (int64_t i = 0; i < count; ++i) {
        const std::string label =
            keys ? m_trace->input.keyLabel(m_batch, i) : m_trace->input.queryLabel(m_batch, i);
        entries << TokenNumber::entry(i, QString::fromStdString(Tokenizer::displayLabel(label)));
    }
    box->addItems(entries);
    box->setCurrentIndex(std::clamp(previous, 0, std::max(box->count() - 1, 0)));
}

void RopePanel::setTrace(std::shared_ptr<const Trace> trace, int batch)
{
    m_trace = std::move(trace);
    m_batch = batch;
    if (!m_trace || !m_trace->config.usesRope())
        return;
    const QSignalBlocker b1(m_head), b2(m_pair);
    m_head->setRange(1, m_trace->heads());
    m_pair->setRange(0, m_trace->config.headDimK() / 2 - 1);
    fillTokens(m_query, false);
    fillTokens(m_key, true);
    if (m_query->currentIndex() == 0 && m_key->currentIndex() == 0 && m_key->count() > 1)
        m_query->setCurrentIndex(std::min(m_query->count() - 1, 3)); // two different positions
    m_shownDifference = -1.0;
    // True on paper too (the handout has no second pass): the window replaces it with the
    // answer for this text.
    m_shiftResult->setText(tr("Moving every position by s leaves every score the same up to "
                              "float rounding: the window runs the layer again to show the "
                              "largest change."));
    refresh();
}

void RopePanel::refresh()
{
    if (!m_trace || !m_trace->config.usesRope() || m_query->count() == 0 || m_key->count() == 0)
        return;
    const AttentionConfig &c = m_trace->config;
    const int head = m_head->value() - 1, pair = m_pair->value(), kv = c.kvHeadOf(head);
    const int i = m_query->currentIndex(), j = m_key->currentIndex();
    const bool interleaved = c.attentionPositions == AttentionPositions::RopeInterleaved;
    // No cos/sin table (count 0): only the angles and the pair's indices are read from it.
    const RotaryEmbedding rope(c.headDimK(), c.ropeTheta, interleaved, 0, c.ropePositionOffset);
    const int64_t first = rope.firstOfPair(pair), second = rope.secondOfPair(pair);
    auto read = [&](TraceKey key, int h, int row) {
        const Tensor &t = m_trace->tensor(key);
        return QPointF(t.at({m_batch, h, row, first}), t.at({m_batch, h, row, second}));
    };
    RopePair p;
    p.qBefore = read(keys::qHeads, head, i);
    p.qAfter = read(keys::qRot, head, i);
    p.kBefore = read(keys::kHeads, kv, j);
    p.kAfter = read(keys::kRot, kv, j);
    p.qAngle = rope.angle(i, pair);
    p.kAngle = rope.angle(j, pair);
    p.qColor = HeadColors::color(head, m_dark);
    p.kColor = HeadColors::kvColor(kv, m_dark);
    m_arrows->setPair(p, tr("number %1").arg(first), tr("number %1").arg(second));
    m_numbers->setText(describe(p, pair, first, second));
}

QString RopePanel::describe(const RopePair &p, int pair, int64_t first, int64_t second) const
{
    const AttentionConfig &c = m_trace->config;
    const int head = m_head->value() - 1, kv = c.kvHeadOf(head);
    const int i = m_query->currentIndex(), j = m_key->currentIndex();
    const bool interleaved = c.attentionPositions == AttentionPositions::RopeInterleaved;
    const double frequency = RotaryEmbedding::frequency(pair, c.headDimK(), c.ropeTheta);
    const int64_t m = c.ropePositionOffset + i, n = c.ropePositionOffset + j;
    const QString kName = c.kvHeadCount() < c.heads ? tr("k (K/V head %1)").arg(kv + 1) : "k";
    auto label = [](const std::string &token) {
        return QString::fromStdString(Tokenizer::displayLabel(token));
    };
    return tr("<b>Pair j = %1</b>: numbers %2 and %3 of the head's %4 (%5). It turns by "
              "θ<sub>j</sub> = %6<sup>−2·%1/%4</sup> = %7 rad per position.<br><span "
              "style='color:%8'><b>q</b></span> of %9 at m = %10: %11 turned by m θ<sub>j</sub> = "
              "%12 → %13<br>")
               .arg(pair)
               .arg(first)
               .arg(second)
               .arg(c.headDimK())
               .arg(interleaved ? tr("interleaved pairs 2j, 2j+1")
                                : tr("split-half pairs j, j+d_k/2"))
               .arg(double(c.ropeTheta), 0, 'g', 6)
               .arg(frequency, 0, 'g', 4)
               .arg(p.qColor.name(),
                    TokenNumber::named(i, label(m_trace->input.queryLabel(m_batch, i))))
               .arg(m)
               .arg(vec(p.qBefore), radians(p.qAngle), vec(p.qAfter)) +
           tr("<span style='color:%1'><b>%2</b></span> of %3 at n = %4: %5 turned by n "
              "θ<sub>j</sub> = %6 → %7<br>Its share of q · k: %8 before, %9 after; the angle "
              "between q and k grew by (m − n) θ<sub>j</sub> = %10.")
               .arg(p.kColor.name(), kName,
                    TokenNumber::named(j, label(m_trace->input.keyLabel(m_batch, j))))
               .arg(n)
               .arg(vec(p.kBefore), radians(p.kAngle), vec(p.kAfter))
               .arg(dot(p.qBefore, p.kBefore), 0, 'f', 4)
               .arg(dot(p.qAfter, p.kAfter), 0, 'f', 4)
               .arg(radians(p.qAngle - p.kAngle));
}

void RopePanel::pick(int head, int pair, int query, int key)
{
    const QSignalBlocker b1(m_head), b2(m_pair), b3(m_query), b4(m_key);
    m_head->setValue(head + 1);
    m_pair->setValue(pair);
    m_query->setCurrentIndex(std::clamp(query, 0, m_query->count() - 1));
    m_key->setCurrentIndex(std::clamp(key, 0, m_key->count() - 1));
    refresh();
}

int RopePanel::shift() const
{
    return m_shift->value();
}

void RopePanel::setShiftResult(const PositionShiftResult &result)
{
    if (result.trace != m_trace || result.check.shift != shift())
        return;
    if (!result.error.isEmpty()) {
        m_shiftResult->setText(tr("The shifted layer cannot run: %1").arg(result.error));
        return;
    }
    m_shownDifference = result.check.scoresDifference;
    m_shownCheck = result.check;
    m_shiftResult->setText(
        tr("<b>s = %1:</b> the scores of every head, query and key change by at most "
           "<b>%2</b> (float rounding), though the rotated queries moved by up to %3: RoPE "
           "scores depend only on m − n.")
            .arg(result.check.shift)
            .arg(result.check.scoresDifference, 0, 'g', 2)
            .arg(result.check.rotatedQueryDifference, 0, 'g', 3));
}

void RopePanel::setFontScale(double scale)
{
    m_arrows->setFontScale(scale);
    QFont f = font();
    f.setPointSizeF(10.0 * scale);
    for (QWidget *w : std::initializer_list<QWidget *>{m_numbers, m_shiftResult})
        w->setFont(f);
}

void RopePanel::setDark(bool dark)
{
    m_dark = dark;
    m_arrows->setDark(dark);
    refresh();
}

QString RopePanel::numbersText() const
{
    return m_numbers->text();
}

QString RopePanel::shiftText() const
{
    return m_shiftResult->text();
}

void RopePanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    emit shownChanged(true);
    emit shiftChanged(shift());
}

void RopePanel::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    emit shownChanged(false);
}

} // namespace headlens
