// softmaxRow, expShiftedRow: Eigen's packet exp over whole packets from the row's start.
#include "linalg/softmaxrow.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace headlens {

namespace {

namespace ei = Eigen::internal;

/// exp(x - shift), with -inf giving 0: SSE's and AVX2's exp clamp their input at -88.4 and
/// return 2.9e-39 for -inf, where a masked key must get exactly 0, as in PyTorch.
template <typename Packet>
inline Packet expShifted(const Packet &x, const Packet &shift, bool mayBeMasked)
{
    using S = typename ei::unpacket_traits<Packet>::type;
    const Packet e = ei::pexp(ei::psub(x, shift));
    if (!mayBeMasked)
        return e;
    const Packet minusInf = ei::pset1<Packet>(-std::numeric_limits<S>::infinity());
    return ei::pselect(ei::pcmp_eq(x, minusInf), ei::pzero(e), e);
}

/// The lanes of `p` added up. float: Eigen's predux, whose order the attention kernel's
/// roundings have always had. double: lane by lane from an array, because GCC 12 reports its
/// own _mm512_extractf64x4_pd (inside predux of 8 doubles) as reading an uninitialized value
/// (GCC bug 105593), which -Werror turns into a failed build.
template <typename Packet> auto sumLanes(const Packet &p)
{
    using S = typename ei::unpacket_traits<Packet>::type;
    if constexpr (std::is_same_v<S, float>) {
        return ei::predux(p);
    } else {
        alignas(64) S lanes[ei::unpacket_traits<Packet>::size];
        ei::pstore(lanes, p);
        S total = 0;
        for (const S lane : lanes)
            total += lane;
        return total;
    }
}

template <typename S> S expShiftedRowOf(const S *in, S *out, int64_t n, S shift, bool mayBeMasked)
{
    using Packet = typename ei::packet_traits<S>::type;
    constexpr int64_t kLanes = ei::packet_traits<S>::size;
    const Packet s = ei::pset1<Packet>(shift);
    Packet sum = ei::pzero(s);
    int64_t j = 0;
    for (; j + kLanes <= n; j += kLanes) {
        const Packet e = expShifted(ei::ploadu<Packet>(in + j), s, mayBeMasked);
        ei::pstoreu(out + j, e);
        sum = ei::padd(sum, e);
    }
    S total = sumLanes(sum);
    if (j < n) {
        // The tail through the same packet exp, padded with the shift (exp 0 = 1, then unused).
        alignas(64) S lanes[kLanes];
        std::fill(lanes, lanes + kLanes, shift);
        std::copy(in + j, in + n, lanes);
        ei::pstore(lanes, expShifted(ei::pload<Packet>(lanes), s, mayBeMasked));
        for (int64_t k = 0; j + k < n; ++k) {
            out[j + k] = lanes[k];
            total += lanes[k];
        }
    }
    return total;
}

template <typename S>
SoftmaxRowSums<S> softmaxRowOf(const S *in, S *out, int64_t n, bool mayBeMasked)
{
    const S negInf = -std::numeric_limits<S>::infinity();
    const auto row = Eigen::Map<const Eigen::Array<S, Eigen::Dynamic, 1>>(in, n);
    // PropagateNaN: the default maxCoeff may skip a NaN, and a row of -inf and NaN would then
    // pass for a masked row of zeros.
    const S max = n == 0 ? negInf : row.template maxCoeff<Eigen::PropagateNaN>();
    if (max == negInf) {
        std::fill(out, out + n, S(0));
        return {negInf, negInf};
    }
    // A NaN max (or +inf: inf - inf) makes every exp and the sum NaN, and so every weight.
    const S sum = expShiftedRowOf(in, out, n, max, mayBeMasked);
    Eigen::Map<Eigen::Array<S, Eigen::Dynamic, 1>>(out, n) *= S(1) / sum;
    return {max, std::log(sum)};
}

} // namespace

float expShiftedRow(const float *in, float *out, int64_t n, float shift, bool mayBeMasked)
{
    return expShiftedRowOf(in, out, n, shift, mayBeMasked);
}

double expShiftedRow(const double *in, double *out, int64_t n, double shift, bool mayBeMasked)
{
    return expShiftedRowOf(in, out, n, shift, mayBeMasked);
}

SoftmaxRowSums<float> softmaxRow(const float *in, float *out, int64_t n, bool mayBeMasked)
{
    return softmaxRowOf(in, out, n, mayBeMasked);
}

SoftmaxRowSums<double> softmaxRow(const double *in, double *out, int64_t n, bool mayBeMasked)
{
    return softmaxRowOf(in, out, n, mayBeMasked);
}

} // namespace headlens
