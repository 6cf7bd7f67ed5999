# Sources of core/linalg/: the large float products on Eigen or on a BLAS loaded at run time
# (issue 16). dlopen needs no BLAS at build time; CMAKE_DL_LIBS is empty where libc has it.
# oneDNN (Debian's libdnnl-dev) multiplies BF16 weights in bfloat16 (issue 37). Its CMake
# package asks for OpenCL's development files, for a GPU runtime HeadLens does not use, so the
# library and its header are found directly.
find_library(HEADLENS_DNNL_LIBRARY NAMES dnnl REQUIRED)
find_path(HEADLENS_DNNL_INCLUDE_DIR oneapi/dnnl/dnnl.hpp REQUIRED)
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/bf16product.cpp
    ${CMAKE_CURRENT_LIST_DIR}/blaslibrary.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gemmbackend.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gemmdispatch.cpp
    ${CMAKE_CURRENT_LIST_DIR}/matrixproduct.cpp
    ${CMAKE_CURRENT_LIST_DIR}/openblaskernel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/productprecision.cpp
    ${CMAKE_CURRENT_LIST_DIR}/softmaxrow.cpp
)
target_include_directories(headlens_core SYSTEM PRIVATE ${HEADLENS_DNNL_INCLUDE_DIR})
target_link_libraries(headlens_core PRIVATE ${CMAKE_DL_LIBS} ${HEADLENS_DNNL_LIBRARY})
