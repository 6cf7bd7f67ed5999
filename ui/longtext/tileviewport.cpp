// TileViewport: the zoom and pan arithmetic of a long text's attention view.
#include "longtext/tileviewport.h"

#include <algorithm>
#include <cmath>

namespace headlens {

void TileViewport::setTokens(int64_t tokens)
{
    m_tokens = std::max<int64_t>(tokens, 0);
    reset();
}

void TileViewport::reset()
{
    m_queryOrigin = m_keyOrigin = 0.0;
    m_span = double(m_tokens);
}

void TileViewport::zoom(double factor, QPointF at)
{
    if (factor <= 0.0 || m_tokens == 0)
        return;
    const double span =
        std::clamp(m_span / factor, std::min(kMinSpan, double(m_tokens)), double(m_tokens));
    // The point at a fraction f across keeps that fraction: origin' = at - f * span'.
    const double fk = (at.x() - m_keyOrigin) / m_span, fq = (at.y() - m_queryOrigin) / m_span;
    m_keyOrigin = at.x() - fk * span;
    m_queryOrigin = at.y() - fq * span;
    m_span = span;
    clamp();
}

void TileViewport::pan(double keys, double queries)
{
    m_keyOrigin += keys;
    m_queryOrigin += queries;
    clamp();
}

void TileViewport::show(double q0, double k0, double span)
{
    m_span = std::clamp(span, std::min(kMinSpan, double(m_tokens)), double(m_tokens));
    m_queryOrigin = q0;
    m_keyOrigin = k0;
    clamp();
}

void TileViewport::clamp()
{
    const double room = double(m_tokens) - m_span;
    m_queryOrigin = std::clamp(m_queryOrigin, 0.0, std::max(room, 0.0));
    m_keyOrigin = std::clamp(m_keyOrigin, 0.0, std::max(room, 0.0));
}

TileRegion TileViewport::covered() const
{
    auto first = [](double at) { return int64_t(std::floor(at)); };
    auto end = [this](double at) { return std::min(m_tokens, int64_t(std::ceil(at))); };
    return {first(m_queryOrigin), end(m_queryOrigin + m_span), first(m_keyOrigin),
            end(m_keyOrigin + m_span)};
}

QPointF TileViewport::toPixels(QPointF tokens, const QRectF &square) const
{
    const double scale = square.width() / m_span;
    return {square.left() + (tokens.x() - m_keyOrigin) * scale,
            square.top() + (tokens.y() - m_queryOrigin) * scale};
}

QPointF TileViewport::toTokens(QPointF pixel, const QRectF &square) const
{
    const double scale = m_span / square.width();
    return {m_keyOrigin + (pixel.x() - square.left()) * scale,
            m_queryOrigin + (pixel.y() - square.top()) * scale};
}

int64_t TileViewport::binSizeFor(double pixels) const
{
    // At least a pixel a bin: a picture with more bins than pixels would be drawn scaled down,
    // one bin of several kept per pixel, and a strong weight in another lost.
    const double tokensPerPixel = m_span / std::max(pixels, 1.0);
    return std::max<int64_t>(1, int64_t(std::ceil(tokensPerPixel - 1e-9)));
}

} // namespace headlens
