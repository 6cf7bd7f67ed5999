// RobertaBpeFiles: GPT-2's byte-level BPE files with RoBERTa's special tokens and template.
#include "text/robertabpefiles.h"

#include "io/wholefile.h"
#include "text/pipeline/bpemodelfiles.h"
#include "text/pipeline/byteleveldecoder.h"
#include "text/pipeline/bytelevelpretokenizer.h"
#include "text/pipeline/templateprocessing.h"
#include "util/inputerror.h"

#include <fstream>
#include <sstream>

namespace headlens {

namespace {

std::string readRobertaFile(const std::string &path)
{
    return WholeFile::readText(path, "a RoBERTa folder without tokenizer.json keeps its tokenizer "
                                     "in vocab.json and merges.txt.");
}

AddedToken special(const char *content, bool lstrip = false)
{
    AddedToken token{content};
    token.lstrip = lstrip;
    return token;
}

} // namespace

TokenizerPipeline RobertaBpeFiles::load(const std::string &vocabPath, const std::string &mergesPath,
                                        const TokenizerConfig &config)
{
    return fromText(readRobertaFile(vocabPath), readRobertaFile(mergesPath), vocabPath, mergesPath,
                    config);
}

TokenizerPipeline RobertaBpeFiles::fromText(const std::string &vocabJson,
                                            const std::string &mergesText,
                                            const std::string &vocabName,
                                            const std::string &mergesName,
                                            const TokenizerConfig &config)
{
    for (const char *key : {"cls_token", "sep_token"})
        if (!config.token(key, AddedToken{"<s>"}))
            config.fail(key, "is null, but RoBERTa's tokenizer puts it around every text; "
                             "remove the key to use RoBERTa's.");
    BpeModel::Vocabulary vocabulary = BpeModelFiles::readVocab(vocabJson, vocabName);
    auto preTokenizer = std::make_shared<const ByteLevelPreTokenizer>(
        config.flag("add_prefix_space").value_or(false), true);
    BpeModelFiles::checkByteSymbols(vocabulary, preTokenizer->alphabet(), vocabName);
    const BpeModel::MergeList merges =
        BpeModelFiles::readMerges(mergesText, mergesName, vocabulary);

    TokenizerPipeline::Parts parts;
    parts.model = std::make_shared<const BpeModel>(std::move(vocabulary), merges);
    // RobertaTokenizer's special tokens, in transformers' SPECIAL_TOKENS_ATTRIBUTES order.
    std::vector<AddedToken> specials =
        config.specialTokens({{"bos_token", special("<s>")},
                              {"eos_token", special("</s>")},
                              {"unk_token", special("<unk>")},
                              {"sep_token", special("</s>")},
                              {"pad_token", special("<pad>")},
                              {"cls_token", special("<s>")},
                              {"mask_token", special("<mask>", true)}},
                             *parts.model);
    const auto idOf = [&](const char *key, const char *fallback) {
        const std::string content = config.token(key, AddedToken{fallback})->content;
        for (const AddedToken &token : specials)
            if (token.content == content)
                return token.id;
        return -1;
    };
    using Piece = TemplateProcessing::Piece;
    const Piece cls{false, 0, {idOf("cls_token", "<s>")}, 0},
        sep{false, 0, {idOf("sep_token", "</s>")}, 0}, a{true, 0, {}, 0}, b{true, 1, {}, 0};
    parts.postProcessor = std::make_shared<const TemplateProcessing>(
        TemplateProcessing::Template{cls, a, sep},
        TemplateProcessing::Template{cls, a, sep, sep, b, sep});
    parts.addedTokens = AddedTokens(std::move(specials));
    parts.preTokenizer = std::move(preTokenizer);
    parts.decoder = std::make_shared<const ByteLevelDecoder>();
    return TokenizerPipeline(std::move(parts));
}

} // namespace headlens
