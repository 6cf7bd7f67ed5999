# Sources of core/model/: real checkpoints through one forward pass, families as data (issue 20).
# The safetensors reader and the BPE tokenizer live with their kind in io/ and text/.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/familytable.cpp
    ${CMAKE_CURRENT_LIST_DIR}/familytables.cpp
    ${CMAKE_CURRENT_LIST_DIR}/modelspec.cpp
    ${CMAKE_CURRENT_LIST_DIR}/ggufconfig.cpp
    ${CMAKE_CURRENT_LIST_DIR}/ggufvocabulary.cpp
    ${CMAKE_CURRENT_LIST_DIR}/configreader.cpp
    ${CMAKE_CURRENT_LIST_DIR}/checkpoint.cpp
    ${CMAKE_CURRENT_LIST_DIR}/weightview.cpp
    ${CMAKE_CURRENT_LIST_DIR}/weightproducts.cpp
    ${CMAKE_CURRENT_LIST_DIR}/modelweights.cpp
    ${CMAKE_CURRENT_LIST_DIR}/memoryneeds.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tiledattention.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tiledlayerrecorder.cpp
    ${CMAKE_CURRENT_LIST_DIR}/modelops.cpp
    ${CMAKE_CURRENT_LIST_DIR}/transformermodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/transformerpass.cpp
    ${CMAKE_CURRENT_LIST_DIR}/transformerprefix.cpp
    ${CMAKE_CURRENT_LIST_DIR}/transformerranking.cpp
    ${CMAKE_CURRENT_LIST_DIR}/transformerlens.cpp
    ${CMAKE_CURRENT_LIST_DIR}/headatlas.cpp
    ${CMAKE_CURRENT_LIST_DIR}/headatlasprobe.cpp
    ${CMAKE_CURRENT_LIST_DIR}/headcircuits.cpp
    ${CMAKE_CURRENT_LIST_DIR}/runflow.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tokenpredictions.cpp
    ${CMAKE_CURRENT_LIST_DIR}/../io/safetensorsfile.cpp
    ${CMAKE_CURRENT_LIST_DIR}/../io/storedformat.cpp
    ${CMAKE_CURRENT_LIST_DIR}/../io/ggmlblocks.cpp
    ${CMAKE_CURRENT_LIST_DIR}/../io/mappedfile.cpp
    ${CMAKE_CURRENT_LIST_DIR}/../io/gguffile.cpp
    ${CMAKE_CURRENT_LIST_DIR}/../text/bpetokenizer.cpp
)
# One handle on an opened model, whatever its family: ModelOpener tells a checkpoint folder from
# a toy model, OpenedModel runs them, ModelRun is what every front end reads.
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/openedmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/transformeropenedmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toyopenedmodel.cpp
    ${CMAKE_CURRENT_LIST_DIR}/toyranking.cpp
    ${CMAKE_CURRENT_LIST_DIR}/patchingmap.cpp
    ${CMAKE_CURRENT_LIST_DIR}/modelopener.cpp
    ${CMAKE_CURRENT_LIST_DIR}/modelcatalog.cpp
    ${CMAKE_CURRENT_LIST_DIR}/ggufplaces.cpp
)
