// expShiftedRow: Eigen's packet functions over whole packets from the row's start, the tail padded.
#include "attention/softmaxrow.h"

#include <Eigen/Core>

#include <algorithm>
#include <limits>

namespace headlens {

namespace {

namespace ei = Eigen::internal;
using Packet = ei::packet_traits<float>::type;
constexpr int64_t kLanes = ei::packet_traits<float>::size;

/// exp(x - shift), with -inf giving 0: SSE's and AVX2's exp clamp their input at -88.4 and
/// return 2.9e-39 for -inf, where a masked key must get exactly 0, as in PyTorch.
inline Packet expShifted(const Packet &x, const Packet &shift, bool mayBeMasked)
{
    const Packet e = ei::pexp(ei::psub(x, shift));
    if (!mayBeMasked)
        return e;
    const Packet minusInf = ei::pset1<Packet>(-std::numeric_limits<float>::infinity());
    return ei::pselect(ei::pcmp_eq(x, minusInf), ei::pzero(e), e);
}

} // namespace

float expShiftedRow(const float *in, float *out, int64_t n, float shift, bool mayBeMasked)
{
    const Packet s = ei::pset1<Packet>(shift);
    Packet sum = ei::pzero(s);
    int64_t j = 0;
    for (; j + kLanes <= n; j += kLanes) {
        const Packet e = expShifted(ei::ploadu<Packet>(in + j), s, mayBeMasked);
        ei::pstoreu(out + j, e);
        sum = ei::padd(sum, e);
    }
    float total = ei::predux(sum);
    if (j < n) {
        // The tail through the same packet exp, padded with the shift (exp 0 = 1, then unused).
        alignas(64) float lanes[kLanes];
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

} // namespace headlens
