// Cancelled: what long computations throw when their progress callback says to stop.
#pragma once

namespace headlens {

/// Thrown by a computation whose progress callback (called with the fraction done) returned
/// false: computeTrace, a model's pass, HeadTiles::pooled, the dataset experiments.
struct Cancelled
{
};

} // namespace headlens
