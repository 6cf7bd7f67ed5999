// ggufData: where make_gguf_tiny.py's committed files are (tests/data/gguf).
#pragma once

#include <string>

namespace headlens::test {

inline const std::string kGgufData = HEADLENS_TEST_DATA "/gguf/";

} // namespace headlens::test
