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
    if (empty())
        return;
    assert(size() >= size_t(keys) && queries <= weights.rows() && keys <= weights.cols());
    double *shares[] = {&stats.clsShare, &stats.sepShare, &stats.punctuationShare};
    const Role roles[] = {Cls, Sep, Punctuation};
    for (int r = 0; r < 3; ++r) {
        bool present = false;
        for (int64_t j = 0; j < keys && !present; ++j)
            present = has(size_t(j), roles[r]);
        if (!present)
            continue; // stays NaN: the text has no such token
        double sum = 0.0;
        int64_t rows = 0;
        for (int64_t i = 0; i < queries; ++i) {
            const auto w = weights.row(i).head(keys);
            if (w.sum() == 0.0f)
                continue; // every key masked
            ++rows;
            for (int64_t j = 0; j < keys; ++j)
                if (has(size_t(j), roles[r]))
                    sum += w(j);
        }
        *shares[r] = rows > 0 ? sum / double(rows) : 0.0;
    }
}

} // namespace headlens
