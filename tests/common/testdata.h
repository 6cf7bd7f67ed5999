// The checkpoints in tests/data that many tests open: one name each, so that no test spells
// the path again (and a unity build of the tests sees no two file-local copies).
#pragma once

#include <QString>

namespace headlens::test {

/// GPT-2's exact file layout at 2 layers x 2 heads (tests/data/gpt2/tiny,
/// scripts/make_gpt2_tiny.py).
inline QString tinyGpt2()
{
    return QStringLiteral(HEADLENS_TEST_DATA "/gpt2/tiny");
}

/// BERT with its masked-language-model head, 2 layers (tests/data/bert/bert_mlm,
/// scripts/make_bert_tiny.py).
inline QString bertMlm()
{
    return QStringLiteral(HEADLENS_TEST_DATA "/bert/bert_mlm");
}

} // namespace headlens::test
