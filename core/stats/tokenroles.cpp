// TokenRoles: special ids by value, punctuation by the characters of the token's label.
#include "stats/tokenroles.h"

#include "text/pipeline/unicodetext.h"

#include <cassert>

namespace headlens {

namespace {

/// True when `label` holds at least one character and each is punctuation; the "␣" HeadLens
/// shows for a leading space (GPT-2's "Ġ.", RoBERTa's) does not count against it.
bool isPunctuationLabel(const std::string &label)
{
    static const std::string space = "\u2423";
    size_t i = label.compare(0, space.size(), space) == 0 ? space.size() : 0;
    if (i == label.size())
        return false;
    while (i < label.size())
        if (!UnicodeText::isPunctuation(UnicodeText::next(label, i)))
            return false;
    return true;
}

} // namespace

TokenRoles TokenRoles::of(const std::vector<int> &ids, const std::vector<std::string> &labels,
                          int clsId, int sepId)
{
    assert(ids.size() == labels.size());
    TokenRoles roles;
    roles.m_flags.resize(ids.size(), 0);
    for (size_t t = 0; t < ids.size(); ++t) {
        if (ids[t] == clsId)
            roles.m_flags[t] |= Cls;
        else if (ids[t] == sepId)
            roles.m_flags[t] |= Sep;
        else if (isPunctuationLabel(labels[t]))
            roles.m_flags[t] |= Punctuation;
    }
    return roles;
}

void TokenRoles::addShares(const Eigen::Ref<const RowMatrix> &weights, int64_t queries,
                           int64_t keys, HeadStats &stats) const
{
    ShareSums sums;
    addShareRows(weights, 0, queries, keys, sums);
    setShares(sums, keys, stats);
}

void TokenRoles::addShareRows(const Eigen::Ref<const RowMatrix> &weights, int64_t firstRow,
                              int64_t queries, int64_t keys, ShareSums &sums) const
{
    assert(queries <= weights.rows() && keys <= weights.cols());
    const ShareMasks masks = shareMasks(keys);
    if (masks.size() == 0 || firstRow >= queries)
        return; // every share stays NaN, or no row to add
    // One (queries, keys) x (keys, 4) product instead of a loop per weight and role: GPT-2
    // small's 144 heads at 1,024 tokens take it in a few milliseconds.
    addRowShares(weights.block(firstRow, 0, queries - firstRow, keys) * masks, sums);
}

TokenRoles::ShareMasks TokenRoles::shareMasks(int64_t keys) const
{
    if (empty())
        return {};
    assert(size() >= size_t(keys));
    const Role roles[] = {Cls, Sep, Punctuation};
    ShareMasks masks = ShareMasks::Zero(keys, 4);
    bool present = false;
    for (int64_t j = 0; j < keys; ++j) {
        masks(j, 0) = 1.0f;
        for (int r = 0; r < 3; ++r)
            if (has(size_t(j), roles[r])) {
                masks(j, 1 + r) = 1.0f;
                present = true;
            }
    }
    return present ? masks : ShareMasks();
}

void TokenRoles::addRowShares(const ShareMasks &rowSums, ShareSums &sums)
{
    for (int64_t i = 0; i < rowSums.rows(); ++i) {
        if (rowSums(i, 0) == 0.0f)
            continue;
        ++sums.rows;
        for (int r = 0; r < 3; ++r)
            sums.totals[r] += rowSums(i, 1 + r);
    }
}

void TokenRoles::setShares(const ShareSums &sums, int64_t keys, HeadStats &stats) const
{
    double *shares[] = {&stats.clsShare, &stats.sepShare, &stats.punctuationShare};
    const Role roles[] = {Cls, Sep, Punctuation};
    for (int r = 0; r < 3; ++r) {
        bool present = false; // else NaN: the text has no such token
        for (int64_t j = 0; j < keys && !present; ++j)
            present = has(size_t(j), roles[r]);
        if (present)
            *shares[r] = sums.rows > 0 ? sums.totals[r] / double(sums.rows) : 0.0;
    }
}

} // namespace headlens
