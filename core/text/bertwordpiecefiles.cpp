// BertWordPieceFiles: vocab.txt lines as ids, then BertConverter's components.
#include "text/bertwordpiecefiles.h"

#include "io/wholefile.h"
#include "text/pipeline/bertnormalizer.h"
#include "text/pipeline/charactersplitpretokenizer.h"
#include "text/pipeline/pretokenizersequence.h"
#include "text/pipeline/templateprocessing.h"
#include "text/pipeline/wordpiecedecoder.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <fstream>
#include <sstream>

namespace headlens {

namespace {

using CharacterClass = CharacterSplitPreTokenizer::CharacterClass;
using Behavior = SplitDelimiter::Behavior;

std::string readBertFile(const std::string &path)
{
    return WholeFile::readText(path,
                               "a BERT folder without tokenizer.json keeps its vocabulary there.");
}

/// The text of a special token the tokenizer cannot do without.
std::string required(const TokenizerConfig &config, const std::string &key,
                     const std::string &fallback)
{
    const std::optional<AddedToken> token = config.token(key, AddedToken{fallback});
    if (!token)
        config.fail(key, "is null, but BERT's tokenizer needs it; remove the key to use \"" +
                             fallback + "\".");
    return token->content;
}

std::shared_ptr<const PreTokenizer> bertPreTokenizer()
{
    return std::make_shared<const PreTokenizerSequence>(
        std::vector<std::shared_ptr<const PreTokenizer>>{
            std::make_shared<const CharacterSplitPreTokenizer>(CharacterClass::Whitespace,
                                                               Behavior::Removed),
            std::make_shared<const CharacterSplitPreTokenizer>(CharacterClass::Punctuation,
                                                               Behavior::Isolated)});
}

} // namespace

WordPieceModel::Vocabulary BertWordPieceFiles::readVocab(const std::string &text,
                                                         const std::string &name)
{
    WordPieceModel::Vocabulary vocabulary;
    size_t begin = 0;
    for (int id = 0; begin < text.size(); ++id) {
        size_t end = text.find('\n', begin);
        if (end == std::string::npos)
            end = text.size();
        const std::string token = text.substr(begin, end - begin);
        begin = end + 1;
        const std::string where = name + " line " + std::to_string(id + 1);
        if (id >= kMaxTokens)
            throw InputError(name + " has more than " + std::to_string(kMaxTokens) +
                             " lines; a BERT vocabulary has one token a line. Is it vocab.txt?");
        if (!token.empty() && token.back() == '\r')
            throw InputError(where + " ends in a carriage return (Windows line breaks); "
                                     "transformers would keep it in every token. Convert the "
                                     "file to Unix line breaks or download it again.");
        const auto [found, added] = vocabulary.emplace(token, id);
        if (!added)
            throw InputError(where + " repeats the token \"" + quotedText(token) + "\" of line " +
                             std::to_string(found->second + 1) +
                             "; each token has one line, its id. Download vocab.txt again.");
    }
    return vocabulary;
}

TokenizerPipeline BertWordPieceFiles::load(const std::string &vocabPath,
                                           const TokenizerConfig &config)
{
    return fromText(readBertFile(vocabPath), vocabPath, config);
}

TokenizerPipeline BertWordPieceFiles::fromText(const std::string &vocabText,
                                               const std::string &vocabName,
                                               const TokenizerConfig &config)
{
    WordPieceModel::Options options;
    options.unkToken = required(config, "unk_token", "[UNK]");
    const std::string cls = required(config, "cls_token", "[CLS]");
    const std::string sep = required(config, "sep_token", "[SEP]");
    WordPieceModel::Vocabulary vocabulary = readVocab(vocabText, vocabName);
    if (vocabulary.count(options.unkToken) == 0)
        throw InputError(vocabName + " has no line \"" + quotedText(options.unkToken) +
                         "\", the token for unknown words" +
                         (config.name().empty() ? "" : " (unk_token of " + config.name() + ")") +
                         ". Is this BERT's vocab.txt?");

    BertNormalizer::Options normalizer;
    normalizer.lowercase = config.flag("do_lower_case").value_or(true);
    normalizer.handleChineseChars = config.flag("tokenize_chinese_chars").value_or(true);
    normalizer.stripAccents = config.flag("strip_accents").value_or(normalizer.lowercase);

    TokenizerPipeline::Parts parts;
    parts.model = std::make_shared<const WordPieceModel>(std::move(vocabulary), options);
    // BertTokenizer's special tokens, in transformers' SPECIAL_TOKENS_ATTRIBUTES order.
    std::vector<AddedToken> specials = config.specialTokens({{"unk_token", {"[UNK]"}},
                                                             {"sep_token", {"[SEP]"}},
                                                             {"pad_token", {"[PAD]"}},
                                                             {"cls_token", {"[CLS]"}},
                                                             {"mask_token", {"[MASK]"}}},
                                                            *parts.model);
    const auto idOf = [&](const std::string &content) {
        for (const AddedToken &token : specials)
            if (token.content == content)
                return token.id;
        return -1;
    };
    using Piece = TemplateProcessing::Piece;
    const Piece clsPiece{false, 0, {idOf(cls)}, 0}, sepA{false, 0, {idOf(sep)}, 0},
        sepB{false, 0, {idOf(sep)}, 1}, a{true, 0, {}, 0}, b{true, 1, {}, 1};
    parts.postProcessor = std::make_shared<const TemplateProcessing>(
        TemplateProcessing::Template{clsPiece, a, sepA},
        TemplateProcessing::Template{clsPiece, a, sepA, b, sepB});
    parts.addedTokens = AddedTokens(std::move(specials));
    parts.normalizer = std::make_shared<const BertNormalizer>(normalizer);
    parts.preTokenizer = bertPreTokenizer();
    parts.decoder = std::make_shared<const WordPieceDecoder>("##", true);
    return TokenizerPipeline(std::move(parts));
}

} // namespace headlens
