// TokenRoles: which tokens of a text are [CLS], [SEP] or punctuation, for the heads' shares.
#pragma once

#include "stats/headstats.h"

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// The roles Clark et al. 2019 found heads to specialise in, one set of flags per token.
/// Empty: no token has a role (the shares stay NaN).
class TokenRoles
{
public:
    enum Role : uint8_t
    {
        Cls = 1,         ///< BERT's [CLS], RoBERTa's <s>
        Sep = 2,         ///< BERT's [SEP], RoBERTa's </s>
        Punctuation = 4, ///< a token whose text is only punctuation (Unicode P*), not special
    };

    TokenRoles() = default;
    /// Roles of `ids` whose display labels are `labels`: ids equal to `clsId` or `sepId` (-1 for
    /// none), and labels made only of punctuation (after the "␣" of a leading space).
    /// Precondition: ids.size() == labels.size().
    static TokenRoles of(const std::vector<int> &ids, const std::vector<std::string> &labels,
                         int clsId, int sepId);

    bool empty() const { return m_flags.empty(); }
    size_t size() const { return m_flags.size(); }
    bool has(size_t token, Role role) const
    {
        return token < m_flags.size() && (m_flags[token] & role) != 0;
    }

    /// Sets stats.clsShare, sepShare and punctuationShare from a head's (n, n_kv) weights over
    /// its first `queries` rows (rows that sum to 0, fully masked, are left out): for each role
    /// present among the keys, the mean over rows of the summed weight on its keys; NaN for a
    /// role no key has. Precondition: size() >= keys when not empty.
    void addShares(const Eigen::Ref<const RowMatrix> &weights, int64_t queries, int64_t keys,
                   HeadStats &stats) const;

    /// What addShares sums: per role the weight on its keys over the rows counted (rows that
    /// sum to 0 left out), kept so that the rows of tokens appended to a causal text are added
    /// to them (a causal row puts no weight on the keys after it).
    struct ShareSums
    {
        double totals[3] = {0.0, 0.0, 0.0}; ///< Cls, Sep, Punctuation
        int64_t rows = 0;
    };
    /// Adds rows firstRow .. queries - 1 of `weights` to `sums` (addShares' first part).
    void addShareRows(const Eigen::Ref<const RowMatrix> &weights, int64_t firstRow, int64_t queries,
                      int64_t keys, ShareSums &sums) const;

    /// (keys, 4): column 0 all ones, column 1 + r one at each of the first `keys` tokens of role
    /// r (Cls, Sep, Punctuation); empty when none has a role. Weights times these are each row's
    /// sum and its sums on the roles, what addShareRows adds: a pass that sees its rows in blocks
    /// of keys makes them once and sums the blocks' products (TiledLayerRecorder).
    using ShareMasks = Eigen::Matrix<float, Eigen::Dynamic, 4>;
    ShareMasks shareMasks(int64_t keys) const;
    /// Adds rows' products with shareMasks to `sums`; a row whose column 0 is 0 is left out.
    static void addRowShares(const ShareMasks &rowSums, ShareSums &sums);
    /// The shares of `sums` into `stats`: NaN for a role none of the first `keys` tokens has.
    void setShares(const ShareSums &sums, int64_t keys, HeadStats &stats) const;

private:
    std::vector<uint8_t> m_flags;
};

} // namespace headlens
