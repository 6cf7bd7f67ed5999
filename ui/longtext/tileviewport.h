// TileViewport: which square of a long text's (n, n) attention a view shows, and its zoom.
#pragma once

#include "attention/tileregion.h"

#include <QPointF>
#include <QRectF>

#include <cstdint>

namespace headlens {

/// A square window of `span` x `span` tokens over an n x n matrix, at queries [queryOrigin,
/// queryOrigin + span) and keys [keyOrigin, keyOrigin + span), drawn into a square of pixels.
/// It zooms about a point (the one under the pointer stays under it) and pans, never past the
/// matrix's edges, from the whole text down to kMinSpan tokens.
class TileViewport
{
public:
    /// The fewest tokens a view spans: cells some tens of pixels wide.
    static constexpr double kMinSpan = 8.0;

    explicit TileViewport(int64_t tokens = 0) { setTokens(tokens); }

    /// A new matrix of `tokens` x `tokens`: the whole shown.
    void setTokens(int64_t tokens);
    int64_t tokens() const { return m_tokens; }
    double queryOrigin() const { return m_queryOrigin; }
    double keyOrigin() const { return m_keyOrigin; }
    double span() const { return m_span; }
    bool whole() const { return m_span >= double(m_tokens); }

    /// Shows the whole matrix.
    void reset();
    /// Zooms in by `factor` (> 1 in, < 1 out) keeping the point `at` (key, query in tokens)
    /// where it is on screen.
    void zoom(double factor, QPointF at);
    /// Moves the window by (keys, queries) tokens.
    void pan(double keys, double queries);
    /// Shows queries [q0, q0 + span) and keys [k0, k0 + span), clamped to the matrix.
    void show(double q0, double k0, double span);

    /// The whole cells the window touches, within the matrix.
    TileRegion covered() const;
    /// Where token point (key, query) falls in `square`, the view's square of pixels.
    QPointF toPixels(QPointF tokens, const QRectF &square) const;
    /// The token point (key, query) at `pixel` of `square`.
    QPointF toTokens(QPointF pixel, const QRectF &square) const;
    /// The bin side to compute at for `pixels` across the square: the fewest whole tokens that
    /// are at least a pixel wide (1 when a token is wider than a pixel), so that every bin is
    /// drawn and a pixel shows its own tokens' largest weight.
    int64_t binSizeFor(double pixels) const;

private:
    void clamp();

    int64_t m_tokens = 0;
    double m_queryOrigin = 0.0, m_keyOrigin = 0.0, m_span = 0.0;
};

} // namespace headlens
