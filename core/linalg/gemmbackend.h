// GemmBackend: which library computes the core's large float matrix products.
#pragma once

#include <optional>
#include <string>

namespace headlens {

enum class GemmBackend
{
    Eigen,    ///< Eigen 3.4's own kernel, compiled into HeadLens; always there
    OpenBlas, ///< OpenBLAS's cblas_sgemm, loaded at run time (BlasLibrary)
    Blis      ///< BLIS's cblas_sgemm, loaded at run time
};

/// "eigen", "openblas", "blis": the values HEADLENS_GEMM takes and the bench reports.
std::string toString(GemmBackend backend);
/// The backend named `name` (as toString writes it), or nothing.
std::optional<GemmBackend> parseGemmBackend(const std::string &name);

} // namespace headlens
