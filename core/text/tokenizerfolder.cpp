// TokenizerFolder: picks the folder's tokenizer files, reads them, and applies the config.
#include "text/tokenizerfolder.h"

#include "text/bertwordpiecefiles.h"
#include "text/bpetokenizer.h"
#include "text/pipeline/templateprocessing.h"
#include "text/robertabpefiles.h"
#include "text/tokenizerconfig.h"
#include "text/tokenizerjson.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <filesystem>

namespace headlens {

namespace {

namespace fs = std::filesystem;

const char *familyName(SlowTokenizer slow)
{
    switch (slow) {
    case SlowTokenizer::Gpt2Bpe:
        return "GPT-2";
    case SlowTokenizer::RobertaBpe:
        return "RoBERTa";
    case SlowTokenizer::BertWordPiece:
        break;
    }
    return "BERT";
}

/// Refuses a folder that lacks one of `files`, naming what it looked for.
void requireFiles(const std::string &dir, SlowTokenizer slow, std::vector<std::string> files)
{
    std::vector<std::string> missing;
    for (const std::string &file : files)
        if (!fs::exists(fs::path(dir) / file))
            missing.push_back(file);
    if (missing.empty())
        return;
    std::string wanted;
    for (size_t i = 0; i < files.size(); ++i)
        wanted += (i > 0 ? " + " : "") + files[i];
    const bool none = missing.size() == files.size();
    throw InputError(dir + " has no tokenizer.json" + (none ? " and no " : " and lacks ") +
                     (none ? wanted : missing.front()) + ": HeadLens looked for tokenizer.json, " +
                     "then the " + familyName(slow) + " files " + wanted +
                     ". Download the model's tokenizer files into the folder.");
}

TokenizerPipeline slowTokenizer(const std::string &dir, SlowTokenizer slow,
                                const TokenizerConfig &config)
{
    const std::string base = (fs::path(dir) / "").string();
    switch (slow) {
    case SlowTokenizer::Gpt2Bpe:
        requireFiles(dir, slow, {"vocab.json", "merges.txt"});
        return BpeTokenizer::load(base + "vocab.json", base + "merges.txt").pipeline();
    case SlowTokenizer::RobertaBpe:
        requireFiles(dir, slow, {"vocab.json", "merges.txt"});
        return RobertaBpeFiles::load(base + "vocab.json", base + "merges.txt", config);
    case SlowTokenizer::BertWordPiece:
        break;
    }
    requireFiles(dir, slow, {"vocab.txt"});
    return BertWordPieceFiles::load(base + "vocab.txt", config);
}

/// The id of the special token `key` names for the template, refusing one the tokenizer lacks.
int templateTokenId(const TokenizerPipeline &pipeline, const TokenizerConfig &config,
                    const std::string &key, const char *fallback, const std::string &flag)
{
    const std::optional<AddedToken> token = config.token(key, AddedToken{fallback});
    if (!token)
        config.fail(key, "is null, but " + flag +
                             " is true; transformers refuses this too. "
                             "Name the token or set " +
                             flag + " to false.");
    const int id = pipeline.idOf(token->content);
    if (id < 0)
        config.fail(key, "is \"" + quotedText(token->content) + "\" (for " + flag +
                             "), which the tokenizer has no token for.");
    return id;
}

/// LlamaTokenizerFast.update_post_processor's template.
TokenizerPipeline withBosEos(const TokenizerPipeline &pipeline, const TokenizerConfig &config)
{
    const bool bos = config.flag("add_bos_token").value_or(true);
    const bool eos = config.flag("add_eos_token").value_or(false);
    const int bosId =
        bos ? templateTokenId(pipeline, config, "bos_token", "<s>", "add_bos_token") : -1;
    const int eosId =
        eos ? templateTokenId(pipeline, config, "eos_token", "</s>", "add_eos_token") : -1;
    // "[bos:i] $X:i [eos:i]" for sequence i (A is 0, B is 1), type id i throughout.
    const auto around = [&](int sequence) {
        TemplateProcessing::Template pieces;
        if (bos)
            pieces.push_back({false, 0, {bosId}, sequence});
        pieces.push_back({true, sequence, {}, sequence});
        if (eos)
            pieces.push_back({false, 0, {eosId}, sequence});
        return pieces;
    };
    TemplateProcessing::Template single = around(0), pair = around(0), second = around(1);
    pair.insert(pair.end(), second.begin(), second.end());
    return pipeline.withPostProcessor(
        std::make_shared<const TemplateProcessing>(std::move(single), std::move(pair)));
}

} // namespace

TokenizerPipeline TokenizerFolder::load(const std::string &dir, SlowTokenizer slow)
{
    if (!fs::is_directory(dir))
        throw InputError(dir +
                         " is not a folder; HeadLens reads a model's tokenizer from its "
                         "folder (tokenizer.json, or the " +
                         std::string(familyName(slow)) + " tokenizer's files).");
    const TokenizerConfig config =
        TokenizerConfig::read((fs::path(dir) / "tokenizer_config.json").string());
    const fs::path json = fs::path(dir) / "tokenizer.json";
    if (!fs::exists(json))
        return slowTokenizer(dir, slow, config);
    const TokenizerPipeline pipeline = TokenizerJson::load(json.string());
    if (!config.flag("add_bos_token") && !config.flag("add_eos_token"))
        return pipeline;
    return withBosEos(pipeline, config);
}

} // namespace headlens
