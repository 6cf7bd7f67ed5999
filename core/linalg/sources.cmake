# Sources of core/linalg/: the large float products on Eigen or on a BLAS loaded at run time
# (issue 16). dlopen needs no BLAS at build time; CMAKE_DL_LIBS is empty where libc has it.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/blaslibrary.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gemmbackend.cpp
    ${CMAKE_CURRENT_LIST_DIR}/gemmdispatch.cpp
    ${CMAKE_CURRENT_LIST_DIR}/matrixproduct.cpp
    ${CMAKE_CURRENT_LIST_DIR}/openblaskernel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/softmaxrow.cpp
)
target_link_libraries(headlens_core PRIVATE ${CMAKE_DL_LIBS})
