// BpeTokenizer: reads GPT-2's files, checks them, and configures the tokenizer pipeline.
#include "text/bpetokenizer.h"

#include "io/wholefile.h"
#include "text/pipeline/bpemodelfiles.h"
#include "text/pipeline/byteleveldecoder.h"
#include "text/tokenizer.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <fstream>
#include <sstream>

namespace headlens {

namespace {

static_assert(BpeTokenizer::kMaxId == BpeModelFiles::kMaxId, "one limit for vocab.json ids");

std::string readGpt2File(const std::string &path, const char *what)
{
    return WholeFile::readText(path, std::string("a GPT-2 folder needs ") + what +
                                         " beside config.json.");
}

} // namespace

BpeTokenizer BpeTokenizer::load(const std::string &vocabPath, const std::string &mergesPath)
{
    return fromText(readGpt2File(vocabPath, "vocab.json"), readGpt2File(mergesPath, "merges.txt"),
                    vocabPath, mergesPath);
}

BpeTokenizer BpeTokenizer::fromText(const std::string &vocabJson, const std::string &mergesText,
                                    const std::string &vocabName, const std::string &mergesName)
{
    BpeModel::Vocabulary vocabulary = BpeModelFiles::readVocab(vocabJson, vocabName);
    auto preTokenizer = std::make_shared<const ByteLevelPreTokenizer>(false, true);
    BpeModelFiles::checkByteSymbols(vocabulary, preTokenizer->alphabet(), vocabName);
    const BpeModel::MergeList merges =
        BpeModelFiles::readMerges(mergesText, mergesName, vocabulary);

    // Hugging Face's GPT-2 tokenizer.json: added_tokens [<|endoftext|>, special], normalizer
    // null, pre_tokenizer ByteLevel(add_prefix_space false), model BPE, decoder ByteLevel.
    TokenizerPipeline::Parts parts;
    const auto endOfText = vocabulary.find(kEndOfText);
    if (endOfText != vocabulary.end())
        parts.addedTokens = AddedTokens({{kEndOfText, endOfText->second, true}});
    parts.preTokenizer = preTokenizer;
    parts.model = std::make_shared<const BpeModel>(std::move(vocabulary), merges);
    parts.decoder = std::make_shared<const ByteLevelDecoder>();

    BpeTokenizer tokenizer;
    tokenizer.m_size = parts.model->size();
    tokenizer.m_pipeline = TokenizerPipeline(std::move(parts));
    tokenizer.m_preTokenizer = std::move(preTokenizer);
    return tokenizer;
}

std::vector<std::string> BpeTokenizer::preTokenize(const std::string &utf8) const
{
    return m_preTokenizer->words(Tokenizer::toValidUtf8(utf8));
}

} // namespace headlens
