// PredictionsPair: two TokenPrediction lists in four columns, each token's rank in the other.
#include "compare/predictionspair.h"

#include "text/tokenizer.h"

#include <QHeaderView>

#include <algorithm>

namespace headlens {

namespace {

/// `id`'s rank among all of `run`'s next tokens ("#3"): one more than the tokens it gives a
/// larger logit; "–" when the run kept no logits.
QString rankIn(const ModelRun &run, int id)
{
    const Vector &logits = run.firstLogits;
    if (id < 0 || id >= logits.size())
        return QString::fromUtf8("–");
    return QStringLiteral("#%1").arg((logits.array() > logits(id)).count() + 1);
}

QString tokenText(const TokenPrediction &p)
{
    return QString::fromStdString(Tokenizer::displayLabel(p.label));
}

} // namespace

PredictionsPair::PredictionsPair(QWidget *parent) : QTableWidget(0, 4, parent)
{
    setObjectName("comparePredictions");
    setHorizontalHeaderLabels({tr("A next"), tr("p(A)"), tr("B next"), tr("p(B)")});
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus); // a lecture's stray click or wheel changes nothing here
    verticalHeader()->setVisible(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    setToolTip(tr("The next tokens each model predicts after the text, most probable first; "
                  "(#k in B) is the token's rank among all of the other model's next tokens."));
}

void PredictionsPair::setRuns(const ModelRun &a, const ModelRun &b)
{
    const int ranks = int(std::min({size_t(kRanks), a.topNext.size(), b.topNext.size()}));
    setRowCount(ranks);
    const auto put = [this](int row, int col, const QString &text, const QString &tip) {
        auto *item = new QTableWidgetItem(text);
        item->setToolTip(tip);
        if (col % 2 == 1)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setItem(row, col, item);
    };
    for (int r = 0; r < ranks; ++r) {
        const TokenPrediction &pa = a.topNext[size_t(r)], &pb = b.topNext[size_t(r)];
        put(r, 0, tr("%1 (%2 in B)").arg(tokenText(pa), rankIn(b, pa.tokenId)),
            tr("token id %1").arg(pa.tokenId));
        put(r, 1, QString::number(pa.probability, 'f', 3), QString());
        put(r, 2, tr("%1 (%2 in A)").arg(tokenText(pb), rankIn(a, pb.tokenId)),
            tr("token id %1").arg(pb.tokenId));
        put(r, 3, QString::number(pb.probability, 'f', 3), QString());
    }
    setVisible(ranks > 0);
    updateGeometry();
}

// Every row and column shown, no scrolling: five rows are small.
QSize PredictionsPair::sizeHint() const
{
    int width = 2 * frameWidth(),
        height = 2 * frameWidth() + horizontalHeader()->sizeHint().height();
    for (int c = 0; c < columnCount(); ++c)
        width += horizontalHeader()->sectionSize(c);
    for (int r = 0; r < rowCount(); ++r)
        height += rowHeight(r);
    return QSize(width, height);
}

} // namespace headlens
