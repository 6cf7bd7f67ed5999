// HeadStatsModel: reads HeadStats out of the ModelRun; no computing here.
#include "views/headstatsmodel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace headlens {

HeadStatsModel::HeadStatsModel(QObject *parent) : QAbstractTableModel(parent) {}

void HeadStatsModel::setRun(const std::shared_ptr<const ModelRun> &run)
{
    if (run)
        setStats(run->stats, run->heads, run->kvHeads);
    else
        setStats({}, 1, 0);
}

void HeadStatsModel::setStats(std::vector<HeadStats> stats, int heads, int kvHeads,
                              std::vector<double> induction)
{
    beginResetModel();
    m_stats = std::move(stats);
    m_heads = std::max(heads, 1);
    m_kvHeads = kvHeads;
    m_induction = std::move(induction);
    m_filled = !m_stats.empty();
    endResetModel();
}

int HeadStatsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_stats.size());
}

int HeadStatsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : Count;
}

bool HeadStatsModel::anyValue(int column) const
{
    for (int row = 0; row < rowCount(); ++row)
        if (!std::isnan(value(row, column)))
            return true;
    return false;
}

bool HeadStatsModel::isColumnShown(int column) const
{
    if (column == Induction)
        return !m_induction.empty();
    if (!m_filled)
        return true;
    switch (column) {
    case KvGroup:
        return m_kvHeads > 0 && m_kvHeads < m_heads;
    case FirstToken: // an encoder's first token is its [CLS]: one column, not two equal ones
        return !anyValue(ClsShare);
    case ClsShare:
    case SepShare:
    case PunctuationShare:
        return anyValue(column);
    default:
        return true;
    }
}

double HeadStatsModel::value(int row, int column) const
{
    const int heads = m_heads;
    const HeadStats &s = m_stats.at(size_t(row));
    switch (column) {
    case Layer:
        return row / heads;
    case Head:
        return row % heads;
    case KvGroup: // each run of h / h_kv neighbouring heads reads one K/V head (the GQA repeat)
        return (row % heads) / std::max(heads / std::max(m_kvHeads, 1), 1);
    case Induction:
        return size_t(row) < m_induction.size() ? m_induction[size_t(row)]
                                                : std::numeric_limits<double>::quiet_NaN();
    case Entropy:
        return s.entropy;
    case MeanDistance:
        return s.meanDistance;
    case PreviousToken:
        return s.previousToken;
    case FirstToken:
        return s.firstToken;
    case ClsShare:
        return s.clsShare;
    case SepShare:
        return s.sepShare;
    case PunctuationShare:
        return s.punctuationShare;
    default:
        return s.diagonal;
    }
}

QVariant HeadStatsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const double v = value(index.row(), index.column());
    if (role == kSortRole)
        return v;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Layer:
            return QString::number(int(v));
        case Head: // heads and K/V heads count from 1, as in the Heads view
        case KvGroup:
            return QString::number(int(v) + 1);
        default:
            return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', 3);
        }
    }
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant HeadStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= Count)
        return {};
    // Short headers: with seven columns in a third of a 1400 px window, "Prev. token" showed
    // as "rev. toke". The tooltip gives the full name and what the number means.
    static const char *const names[] = {"Layer",   "Head",  "K/V",   "[CLS]", "[SEP]", "Punct.",
                                        "Entropy", "Dist.", "Prev.", "First", "Self",  "Induct."};
    static const char *const tips[] = {
        "Layer, counted from 0 as --layer does",
        "Head, counted from 1 as in the Heads view",
        "K/V head: the key/value head this head shares with its group (grouped-query "
        "attention), counted from 1",
        "[CLS] share: mean weight on [CLS] (<s> for RoBERTa), an encoder's first token (in "
        "place of the First column); — when the text has none",
        "[SEP] share: mean weight on [SEP] (</s>); high in BERT's middle layers (Clark et al. "
        "2019); — when the text has none",
        "Punctuation share: mean weight on punctuation tokens (. , ! ...); — when the text has "
        "none",
        "Entropy: mean row entropy in nats; 0 = each token looks at one key, high = spread out",
        "Distance: mean distance in tokens between a query and the keys it looks at",
        "Previous token: mean weight on the token just before; high for previous-token heads",
        "First token: mean weight on the first token; high for heads that park attention there",
        "Self (diagonal): mean weight a token gives itself",
        "Induction: on random tokens of the corpus repeated once, the mean weight from each "
        "token of the second copy onto the token after its first occurrence (Olsson et al. "
        "2022); high for induction heads"};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

} // namespace headlens
