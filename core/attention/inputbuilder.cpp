// InputBuilder: tokenizing, padding, embedding and checking the input of one layer.
#include "attention/inputbuilder.h"
#include "util/bytesize.h"

#include "attention/attentionforward.h"
#include "attention/positionalencoding.h"
#include "text/tokenembedding.h"
#include "text/tokenizer.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <sstream>
#include <unordered_map>

namespace headlens {

namespace {

using Sequences = std::vector<std::vector<std::string>>;

/// Distinct token strings in order of first appearance, with a lookup from string to id.
struct Vocabulary
{
    std::vector<std::string> tokens;
    std::unordered_map<std::string, int> ids;

    int idOf(const std::string &token)
    {
        const auto [it, added] = ids.emplace(token, static_cast<int>(tokens.size()));
        if (added)
            tokens.push_back(token);
        return it->second;
    }
};

std::string widthAxis(const AttentionConfig &config)
{
    return config.dIn == 0 ? "d_model" : "d_in";
}

int checkedWidth(const AttentionConfig &config)
{
    const int width = config.inputWidth();
    if (width < 1)
        throw InputError("The input width is " + std::to_string(width) +
                         ": set d_model (--d-model) or d_in (--d-in) to a positive number, "
                         "e.g. 8.");
    return width;
}

std::string numberText(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

std::string ordinal(const std::string &what, size_t index, size_t count)
{
    return what + " " + std::to_string(index + 1) + " of " + std::to_string(count);
}

/// The tokens of `text`, or none when it holds only white space (which a character model would
/// otherwise take for a sentence of spaces).
std::vector<std::string> tokensOf(const std::string &text, TokenizerKind kind)
{
    std::vector<std::string> words = Tokenizer::tokenize(text, TokenizerKind::Words);
    if (words.empty() || kind == TokenizerKind::Words)
        return words;
    return Tokenizer::tokenize(text, kind);
}

Sequences tokenizeAll(const std::vector<std::string> &texts, TokenizerKind kind,
                      const std::string &what)
{
    Sequences sequences;
    for (size_t i = 0; i < texts.size(); ++i) {
        sequences.push_back(tokensOf(texts[i], kind));
        const size_t count = sequences.back().size();
        if (count > InputBuilder::kMaxTokens)
            throw InputError(ordinal(what, i, texts.size()) + " has " + std::to_string(count) +
                             " tokens, more than the limit of " +
                             std::to_string(InputBuilder::kMaxTokens) +
                             " per sequence: shorten it or split it over several lines.");
    }
    return sequences;
}

Sequences querySequences(const std::vector<std::string> &texts, TokenizerKind kind)
{
    Sequences sequences = tokenizeAll(texts, kind, "Sentence");
    if (std::all_of(sequences.begin(), sequences.end(), [](const auto &s) { return s.empty(); }))
        throw InputError("There is no text to attend over: type a sentence, one per line, e.g. "
                         "'The movie was not bad'.");
    for (size_t i = 0; i < sequences.size(); ++i)
        if (sequences[i].empty())
            throw InputError(ordinal("Sentence", i, sequences.size()) +
                             " is empty: type a sentence in it or remove it.");
    return sequences;
}

/// The key/value sequences for `b` query sequences: one text is used for all of them.
Sequences keySequences(const std::vector<std::string> &kvTexts, size_t b, TokenizerKind kind)
{
    if (kvTexts.size() != 1 && kvTexts.size() != b)
        throw InputError("There are " + std::to_string(b) + " query sentences but " +
                         std::to_string(kvTexts.size()) +
                         " key/value sentences: give one key/value sentence for all of them, "
                         "or one per query sentence.");
    Sequences sequences = tokenizeAll(kvTexts, kind, "Key/value sentence");
    for (size_t i = 0; i < sequences.size(); ++i)
        if (sequences[i].empty())
            throw InputError(ordinal("Key/value sentence", i, sequences.size()) +
                             " is empty: type the sentence the queries should attend to, or "
                             "give no key/value text for self-attention.");
    if (sequences.size() == 1)
        sequences.resize(b, sequences.front());
    return sequences;
}

int64_t longest(const Sequences &sequences)
{
    assert(!sequences.empty());
    const auto shorter = [](const auto &a, const auto &b) { return a.size() < b.size(); };
    return static_cast<int64_t>(
        std::max_element(sequences.begin(), sequences.end(), shorter)->size());
}

void checkMemory(const AttentionConfig &config, int64_t b, int64_t n, int64_t nKv, int64_t d)
{
    // tokenEmbeddings and x (b, n, d), tokenIds (b, n), positions, xKv and kvTokenIds.
    const int64_t floats = b * n * (2 * d + 1) + std::max(n, nKv) * d + b * nKv * (d + 1);
    const int64_t bytes = floats * static_cast<int64_t>(sizeof(float));
    if (bytes <= config.memoryBudgetBytes)
        return;
    const std::string sizes =
        std::to_string(b) + (b == 1 ? " sentence of " : " sentences of up to ") +
        std::to_string(std::max(n, nKv)) + " tokens, " + std::to_string(d) + " wide";
    throw InputError("The input (" + sizes + ") needs " + formatBytes(bytes) +
                     ", more than the memory budget of " + formatBytes(config.memoryBudgetBytes) +
                     ": use fewer or shorter lines, or a smaller " + widthAxis(config) + ".");
}

/// (b, n) ids into `vocabulary` (which grows), -1 at padding.
Tensor idsOf(const Sequences &sequences, int64_t n, const char *lengthAxis, Vocabulary &vocabulary)
{
    const auto b = static_cast<int64_t>(sequences.size());
    Tensor ids(Shape{{"b", b}, {lengthAxis, n}});
    RowMatrixMap matrix(ids.data(), b, n);
    matrix.setConstant(-1.0f);
    for (int64_t s = 0; s < b; ++s) {
        const auto &sequence = sequences[static_cast<size_t>(s)];
        for (size_t i = 0; i < sequence.size(); ++i)
            matrix(s, static_cast<int64_t>(i)) = static_cast<float>(vocabulary.idOf(sequence[i]));
    }
    return ids;
}

RowMatrix embeddingTable(const std::vector<std::string> &tokens, int width, uint64_t seed)
{
    RowMatrix table(static_cast<int64_t>(tokens.size()), width);
    for (size_t v = 0; v < tokens.size(); ++v)
        table.row(static_cast<int64_t>(v)) =
            TokenEmbedding::vectorFor(tokens[v], width, seed).transpose();
    return table;
}

/// Rows of `table` at each id (plus row i of `positions` when given); zero at padding.
Tensor embed(const Tensor &ids, const RowMatrix &table, const RowMatrix *positions,
             const std::string &widthName)
{
    const int64_t b = ids.shape().size(0), n = ids.shape().size(1);
    Tensor result(Shape{{"b", b}, ids.shape().axes()[1], {widthName, table.cols()}});
    for (int64_t s = 0; s < b; ++s) {
        RowMatrixMap rows = result.matrix({s});
        for (int64_t i = 0; i < n; ++i) {
            const auto id = static_cast<int64_t>(ids.at({s, i}));
            if (id < 0)
                continue;
            rows.row(i) = table.row(id);
            if (positions)
                rows.row(i) += positions->row(i);
        }
    }
    return result;
}

/// (b, n_kv), 1 at padded keys; empty when every sequence is full length.
Tensor paddingMask(const Sequences &keys, int64_t nKv)
{
    const auto b = static_cast<int64_t>(keys.size());
    if (std::all_of(keys.begin(), keys.end(),
                    [&](const auto &s) { return static_cast<int64_t>(s.size()) == nKv; }))
        return Tensor();
    Tensor mask(Shape{{"b", b}, {"n_kv", nKv}});
    RowMatrixMap matrix(mask.data(), b, nKv);
    for (int64_t s = 0; s < b; ++s)
        for (int64_t j = static_cast<int64_t>(keys[static_cast<size_t>(s)].size()); j < nKv; ++j)
            matrix(s, j) = 1.0f;
    return mask;
}

/// A C-order flat offset as an index of `shape`: "(0, 1, 2)".
std::string indexText(const Shape &shape, int64_t offset)
{
    std::vector<int64_t> index(static_cast<size_t>(shape.rank()));
    for (int axis = shape.rank() - 1; axis >= 0; --axis) {
        index[static_cast<size_t>(axis)] = offset % shape.size(axis);
        offset /= shape.size(axis);
    }
    std::string text = "(";
    for (size_t i = 0; i < index.size(); ++i)
        text += (i ? ", " : "") + std::to_string(index[i]);
    return text + ")";
}

void checkWidthMatches(const AttentionConfig &config, int64_t d, const std::string &what)
{
    const std::string width = std::to_string(d);
    const std::string expected = std::to_string(config.inputWidth());
    if (d == config.inputWidth())
        return;
    if (config.dIn == 0)
        throw InputError(what + " vectors are " + width +
                         " wide, but the layer expects d_model = " + expected + ": set --d-model " +
                         width + " (the input width follows d_model), or --d-in " + width +
                         " to keep d_model " + expected + ".");
    throw InputError(what + " vectors are " + width + " wide, but the layer expects d_in = " +
                     expected + ": set --d-in " + width + ".");
}

/// `tensor`, (length, d) or (b, length, d), checked and viewed as (b, length, d) with names.
/// The key/value side may be narrower or wider than the queries (PyTorch's kdim/vdim): its width
/// is checked against the weights by computeTrace, not here.
Tensor batched(const Tensor &tensor, const AttentionConfig &config, const std::string &what,
               const char *lengthAxis, bool keyValueSide)
{
    const Shape &shape = tensor.shape();
    if (shape.rank() != 2 && shape.rank() != 3)
        throw InputError(what + " must have shape (n, d) or (b, n, d), but has shape " +
                         shape.toPlainString() + ".");
    if (shape.numel() == 0)
        throw InputError(what + " has shape " + shape.toPlainString() +
                         ", which holds no vectors: it needs at least one token.");
    const int64_t b = shape.rank() == 3 ? shape.size(0) : 1;
    const int64_t n = shape.size(shape.rank() - 2), d = shape.size(shape.rank() - 1);
    if (!keyValueSide)
        checkWidthMatches(config, d, what);
    if (n > InputBuilder::kMaxTokens)
        throw InputError(what + " has " + std::to_string(n) + " tokens per sequence, more " +
                         "than the limit of " + std::to_string(InputBuilder::kMaxTokens) +
                         ": use a shorter sequence.");
    const float *values = tensor.data();
    const float *bad =
        std::find_if(values, values + shape.numel(), [](float v) { return !std::isfinite(v); });
    if (bad != values + shape.numel())
        throw InputError(what + " holds " + numberText(*bad) + " at index " +
                         indexText(shape, bad - values) +
                         ": every value must be a finite number; fix or remove it.");
    const std::string widthName =
        keyValueSide && d != config.inputWidth() ? std::string("d_kv") : widthAxis(config);
    return tensor.view(Shape{{"b", b}, {lengthAxis, n}, {widthName, d}});
}

/// `kv` (b_kv, n_kv, d) for `b` query sequences: a batch of 1 is repeated for every sequence.
Tensor matchBatch(const Tensor &kv, int64_t b)
{
    const int64_t bKv = kv.shape().size(0);
    if (bKv == b)
        return kv;
    if (bKv != 1)
        throw InputError("The key/value input has " + std::to_string(bKv) +
                         " sequences but the queries have " + std::to_string(b) +
                         ": give one key/value sequence for all of them, or one per query "
                         "sequence.");
    std::vector<Axis> axes = kv.shape().axes();
    axes[0].size = b;
    Tensor repeated{Shape(axes)};
    for (int64_t s = 0; s < b; ++s)
        repeated.matrix({s}) = kv.matrix({0});
    return repeated;
}

Tensor checkedMask(const Tensor &mask, int64_t b, int64_t nKv)
{
    const Shape expected{{"b", b}, {"n_kv", nKv}};
    if (mask.shape().sizes() != expected.sizes())
        throw InputError(
            "The key padding mask must have shape (b, n_kv) = " + expected.toPlainString() +
            ", but has shape " + mask.shape().toPlainString() + ".");
    const ConstRowMatrixMap values(mask.data(), b, nKv);
    for (int64_t s = 0; s < b; ++s) {
        for (int64_t j = 0; j < nKv; ++j)
            if (values(s, j) != 0.0f && values(s, j) != 1.0f)
                throw InputError("The key padding mask holds " + numberText(values(s, j)) +
                                 " at index (" + std::to_string(s) + ", " + std::to_string(j) +
                                 "): use 1 for a key to ignore and 0 for a key to attend to.");
        if (values.row(s).minCoeff() == 1.0f)
            throw InputError("The key padding mask hides every key in row " + std::to_string(s) +
                             ": leave at least one 0 in each row, or " +
                             "its queries have nothing to attend to.");
    }
    return mask.view(expected);
}

Sequences positionLabels(int64_t b, int64_t n)
{
    std::vector<std::string> labels;
    for (int64_t i = 0; i < n; ++i)
        labels.push_back(std::to_string(i));
    return Sequences(static_cast<size_t>(b), labels);
}

} // namespace

AttentionInput InputBuilder::fromTexts(const AttentionConfig &config,
                                       const std::vector<std::string> &texts,
                                       const std::vector<std::string> &kvTexts)
{
    const int width = checkedWidth(config);
    const bool cross = !kvTexts.empty();
    AttentionInput input;
    input.tokens = querySequences(texts, config.tokenizer);
    if (cross)
        input.kvTokens = keySequences(kvTexts, texts.size(), config.tokenizer);
    const int64_t n = longest(input.tokens);
    const int64_t nKv = cross ? longest(input.kvTokens) : 0;
    checkMemory(config, static_cast<int64_t>(texts.size()), n, nKv, width);

    Vocabulary vocabulary;
    input.tokenIds = idsOf(input.tokens, n, "n", vocabulary);
    if (cross)
        input.kvTokenIds = idsOf(input.kvTokens, nKv, "n_kv", vocabulary);
    const RowMatrix table = embeddingTable(vocabulary.tokens, width, config.seed);
    const RowMatrix positions = PositionTable::make(
        config.positional, static_cast<int>(std::max(n, nKv)), width, config.seed);

    const std::string d = widthAxis(config);
    input.tokenEmbeddings = embed(input.tokenIds, table, nullptr, d);
    input.positions = Tensor(Shape{{"n", n}, {d, width}},
                             std::vector<float>(positions.data(), positions.data() + n * width));
    input.x = embed(input.tokenIds, table, &positions, d);
    if (cross)
        input.xKv = embed(input.kvTokenIds, table, &positions, d);
    input.keyPaddingMask = paddingMask(cross ? input.kvTokens : input.tokens, cross ? nKv : n);
    input.vocabulary = std::move(vocabulary.tokens);
    return input;
}

AttentionInput InputBuilder::fromTensors(const AttentionConfig &config, Tensor x, Tensor xKv,
                                         Tensor keyPaddingMask)
{
    checkedWidth(config);
    if (x.isEmpty())
        throw InputError("There is no input: load an array of token vectors of shape (n, d) or "
                         "(b, n, d).");
    AttentionInput input;
    input.x = batched(x, config, "The input", "n", false);
    const int64_t b = input.x.shape().size(0), n = input.x.shape().size(1);
    input.tokens = positionLabels(b, n);
    if (!xKv.isEmpty()) {
        input.xKv = matchBatch(batched(xKv, config, "The key/value input", "n_kv", true), b);
        input.kvTokens = positionLabels(b, input.xKv.shape().size(1));
    }
    if (!keyPaddingMask.isEmpty())
        input.keyPaddingMask = checkedMask(keyPaddingMask, b, input.keyLength());
    return input;
}

} // namespace headlens
