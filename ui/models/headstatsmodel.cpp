// HeadStatsModel: reads HeadStats out of the ModelRun; no computing here.
#include "models/headstatsmodel.h"

namespace headlens {

HeadStatsModel::HeadStatsModel(QObject *parent) : QAbstractTableModel(parent) {}

void HeadStatsModel::setRun(std::shared_ptr<const ModelRun> run)
{
    beginResetModel();
    m_run = std::move(run);
    endResetModel();
}

int HeadStatsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_run ? 0 : int(m_run->stats.size());
}

int HeadStatsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : Count;
}

double HeadStatsModel::value(int row, int column) const
{
    const int heads = std::max(m_run->heads, 1);
    const HeadStats &s = m_run->stats.at(size_t(row));
    switch (column) {
    case Layer:
        return row / heads;
    case Head:
        return row % heads;
    case Entropy:
        return s.entropy;
    case MeanDistance:
        return s.meanDistance;
    case PreviousToken:
        return s.previousToken;
    case FirstToken:
        return s.firstToken;
    default:
        return s.diagonal;
    }
}

QVariant HeadStatsModel::data(const QModelIndex &index, int role) const
{
    if (!m_run || !index.isValid())
        return {};
    const double v = value(index.row(), index.column());
    if (role == kSortRole)
        return v;
    if (role == Qt::DisplayRole && index.column() == Head)
        return QString::number(int(v) + 1); // heads count from 1, as in the Heads view
    if (role == Qt::DisplayRole)
        return index.column() == Layer ? QString::number(int(v)) : QString::number(v, 'f', 3);
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant HeadStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    // Short headers: with seven columns in a third of a 1400 px window, "Prev. token" showed
    // as "rev. toke". The tooltip gives the full name and what the number means.
    static const char *const names[] = {"Layer", "Head",  "Entropy", "Dist.",
                                        "Prev.", "First", "Self"};
    static const char *const tips[] = {
        "Layer, counted from 0 as --layer does",
        "Head, counted from 1 as in the Heads view",
        "Entropy: mean row entropy in nats; 0 = each token looks at one key, high = spread out",
        "Distance: mean distance in tokens between a query and the keys it looks at",
        "Previous token: mean weight on the token just before; high for previous-token heads",
        "First token: mean weight on the first token; high for heads that park attention there",
        "Self (diagonal): mean weight a token gives itself"};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

} // namespace headlens
