// GemmBackend: the names of the product backends.
#include "linalg/gemmbackend.h"

namespace headlens {

std::string toString(GemmBackend backend)
{
    switch (backend) {
    case GemmBackend::OpenBlas:
        return "openblas";
    case GemmBackend::Blis:
        return "blis";
    case GemmBackend::Eigen:
        break;
    }
    return "eigen";
}

std::optional<GemmBackend> parseGemmBackend(const std::string &name)
{
    for (GemmBackend backend : {GemmBackend::Eigen, GemmBackend::OpenBlas, GemmBackend::Blis})
        if (toString(backend) == name)
            return backend;
    return std::nullopt;
}

} // namespace headlens
