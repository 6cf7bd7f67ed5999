// bf16product: oneDNN's reorder (float32 to bfloat16) and matmul (bfloat16, float32 sums).
#include "linalg/bf16product.h"

#include <oneapi/dnnl/dnnl.hpp>

namespace headlens {

namespace {

using dnnl::memory;

/// One CPU engine for the process: made once (it holds no state a product changes), and thread
/// safe to use from every thread that multiplies.
const dnnl::engine &cpuEngine()
{
    static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    return engine;
}

memory::desc stridedDesc(int64_t rows, int64_t cols, memory::data_type type, int64_t rowStride,
                         int64_t colStride)
{
    return memory::desc({rows, cols}, type, {rowStride, colStride});
}

const char *isaName(dnnl::cpu_isa isa)
{
    switch (isa) {
    case dnnl::cpu_isa::sse41:
        return "sse41";
    case dnnl::cpu_isa::avx:
        return "avx";
    case dnnl::cpu_isa::avx2:
        return "avx2";
    case dnnl::cpu_isa::avx2_vnni:
        return "avx2_vnni";
    case dnnl::cpu_isa::avx512_core:
        return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni:
        return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16:
        return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx:
        return "avx512_core_amx";
    default:
        return "another instruction set";
    }
}

} // namespace

bool cpuMultipliesBf16()
{
    const dnnl::cpu_isa isa = dnnl::get_effective_cpu_isa();
    return isa == dnnl::cpu_isa::avx512_core_bf16 || isa == dnnl::cpu_isa::avx512_core_amx;
}

std::string oneDnnDescription()
{
    const dnnl_version_t *version = dnnl_version();
    return "oneDNN " + std::to_string(version->major) + "." + std::to_string(version->minor) + "." +
           std::to_string(version->patch) + ", " + isaName(dnnl::get_effective_cpu_isa());
}

bool roundToBf16(const ConstRowMatrixRef &a, uint16_t *out)
{
    if (a.rows() == 0 || a.cols() == 0)
        return true;
    try {
        const dnnl::engine &engine = cpuEngine();
        dnnl::stream stream(engine);
        const memory::desc from =
            stridedDesc(a.rows(), a.cols(), memory::data_type::f32, a.outerStride(), 1);
        const memory::desc to =
            stridedDesc(a.rows(), a.cols(), memory::data_type::bf16, a.cols(), 1);
        memory source(from, engine, const_cast<float *>(a.data()));
        memory rounded(to, engine, out);
        dnnl::reorder(source, rounded).execute(stream, source, rounded);
        stream.wait();
        return true;
    } catch (const dnnl::error &) {
        return false;
    }
}

bool assignBf16Product(RowMatrixRef out, const Bf16Block &a, const Bf16Block &b, Operand op)
{
    const int64_t m = a.rows, k = a.cols;
    const int64_t n = op == Operand::Transposed ? b.rows : b.cols;
    if (m == 0 || n == 0)
        return true;
    const auto aligned = [](const uint16_t *p) {
        return reinterpret_cast<uintptr_t>(p) % alignof(uint16_t) == 0;
    };
    if (!aligned(a.values) || !aligned(b.values))
        return false;
    if (k == 0) { // all zeros; oneDNN refuses a zero dimension
        out.setZero();
        return true;
    }
    try {
        const dnnl::engine &engine = cpuEngine();
        dnnl::stream stream(engine);
        const memory::desc a16 = stridedDesc(m, k, memory::data_type::bf16, a.rowStride, 1);
        // The weight as matmul's (k, n): stored (n, k) when Transposed, so its column j is row j.
        const memory::desc w16 = op == Operand::Transposed
                                     ? stridedDesc(k, n, memory::data_type::bf16, 1, b.rowStride)
                                     : stridedDesc(k, n, memory::data_type::bf16, b.rowStride, 1);
        const memory::desc y32 = stridedDesc(m, n, memory::data_type::f32, out.outerStride(), 1);
        const dnnl::matmul::primitive_desc product(dnnl::matmul::desc(a16, w16, y32), engine);
        memory activations(a16, engine, const_cast<uint16_t *>(a.values));
        memory weight(w16, engine, const_cast<uint16_t *>(b.values));
        memory result(y32, engine, out.data());
        dnnl::matmul(product).execute(
            stream,
            {{DNNL_ARG_SRC, activations}, {DNNL_ARG_WEIGHTS, weight}, {DNNL_ARG_DST, result}});
        stream.wait();
        return true;
    } catch (const dnnl::error &) {
        return false; // no bfloat16 matmul for this CPU (or these strides): the caller widens
    }
}

} // namespace headlens
