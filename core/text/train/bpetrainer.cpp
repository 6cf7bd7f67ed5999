// BpeTrainer: the starting vocabulary, the words in its ids and trainer.rs's merge loop.
#include "text/train/bpetrainer.h"

#include "text/pipeline/bytelevelalphabet.h"
#include "text/train/bpepairqueue.h"
#include "text/train/bpetrainingwords.h"
#include "util/inputerror.h"

#include <cassert>
#include <set>
#include <unordered_map>

namespace headlens {

namespace {

/// The tokens learned so far: trainer.rs's id_to_word and word_to_id.
struct TokenTable
{
    std::vector<std::string> tokens;
    std::unordered_map<std::string, uint32_t> ids;

    /// The id of `token`, added at the end when it is new.
    uint32_t add(const std::string &token)
    {
        const auto [where, added] = ids.emplace(token, static_cast<uint32_t>(tokens.size()));
        if (added)
            tokens.push_back(token);
        return where->second;
    }
};

/// The UTF-8 characters of `word` (valid UTF-8: the pre-tokenizer's byte symbols).
std::vector<std::string> charactersOf(const std::string &word)
{
    std::vector<std::string> characters;
    for (size_t i = 0; i < word.size();) {
        const auto lead = static_cast<unsigned char>(word[i]);
        const size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        characters.push_back(word.substr(i, length));
        i += length;
    }
    return characters;
}

/// trainer.rs add_special_tokens and compute_alphabet (no limit_alphabet): the special tokens,
/// then every character of the alphabet by code point. UTF-8 orders as code points do, so a
/// std::set of the characters' UTF-8 is in code-point order.
TokenTable startVocabulary(const BpeTrainerSettings &settings, const BpeWordCounts &words)
{
    std::set<std::string> alphabet;
    if (settings.byteLevelAlphabet) {
        const ByteLevelAlphabet byteLevel;
        for (int byte = 0; byte < 256; ++byte)
            alphabet.insert(byteLevel.symbol(static_cast<unsigned char>(byte)));
    }
    for (const auto &[word, count] : words.counts())
        for (std::string &character : charactersOf(word))
            alphabet.insert(std::move(character));
    TokenTable table;
    for (const std::string &token : settings.specialTokens)
        table.add(token);
    for (const std::string &character : alphabet)
        table.add(character);
    return table;
}

/// trainer.rs tokenize_words: each distinct word as the ids of its characters.
BpeTrainingWords spellWords(const BpeWordCounts &words, const TokenTable &table)
{
    BpeTrainingWords spelled;
    for (const auto &[word, count] : words.counts()) {
        std::vector<uint32_t> symbols;
        for (const std::string &character : charactersOf(word))
            symbols.push_back(table.ids.at(character));
        spelled.add(std::move(symbols), count);
    }
    return spelled;
}

/// trainer.rs's "Insert them in the queue": every pair in `where` whose count is positive.
void queuePairs(BpeTrainingWords::PairWords &where, const BpeTrainingWords::PairCounts &counts,
                BpePairQueue &queue)
{
    for (auto &[pair, words] : where) {
        const int64_t count = counts.at(pair);
        if (count > 0)
            queue.push({static_cast<uint64_t>(count), pair, std::move(words)});
    }
    where.clear();
}

/// trainer.rs's "Merge the new pair in every words" and "Introduce new formed pairs": merges
/// `top` into `id` in its words, updates the pair counts by the changes, and collects in
/// `where` the words each pair was formed in.
void mergeEverywhere(const BpePairQueue::Entry &top, uint32_t id, BpeTrainingWords &spelled,
                     BpeTrainingWords::PairCounts &pairCounts, BpeTrainingWords::PairWords &where)
{
    std::vector<BpeTrainingWords::Change> changes;
    for (uint32_t word : top.words) {
        changes.clear();
        spelled.merge(word, top.pair, id, changes);
        const auto weight = static_cast<int64_t>(spelled.count(word));
        for (const BpeTrainingWords::Change &change : changes) {
            pairCounts[change.pair] += change.delta * weight;
            if (change.delta > 0) {
                std::vector<uint32_t> &formed = where[change.pair];
                if (formed.empty() || formed.back() != word)
                    formed.push_back(word);
            }
        }
    }
}

/// The merges by rank as tokenizer.json lists them: a pair merged twice once, at its later
/// rank (model.rs keeps merges in a map by pair, serialization sorts them by rank).
BpeModel::MergeList mergeList(const std::vector<BpePair> &merged, const TokenTable &table)
{
    std::unordered_map<BpePair, size_t> lastRank;
    for (size_t rank = 0; rank < merged.size(); ++rank)
        lastRank[merged[rank]] = rank;
    BpeModel::MergeList merges;
    for (size_t rank = 0; rank < merged.size(); ++rank)
        if (lastRank[merged[rank]] == rank)
            merges.emplace_back(table.tokens[leftOf(merged[rank])],
                                table.tokens[rightOf(merged[rank])]);
    return merges;
}

} // namespace

BpeTrainer::BpeTrainer(BpeTrainerSettings settings) : m_settings(std::move(settings))
{
    if (auto problem = m_settings.validate())
        throw InputError(*problem);
}

BpeTrainingResult BpeTrainer::train(const std::vector<std::string> &texts) const
{
    BpeWordCounts words;
    for (const std::string &text : texts)
        words.addLines(text);
    return train(words);
}

BpeTrainingResult BpeTrainer::train(const BpeWordCounts &words) const
{
    if (words.empty())
        throw InputError("There is no text to train the tokenizer on: give it some text.");
    TokenTable table = startVocabulary(m_settings, words);
    const size_t wanted = static_cast<size_t>(m_settings.vocabularySize);
    if (wanted < table.tokens.size())
        throw InputError("A vocabulary of " + std::to_string(wanted) + " tokens cannot hold the " +
                         std::to_string(table.tokens.size()) + " it starts with (" +
                         std::to_string(m_settings.specialTokens.size()) +
                         " special tokens and an alphabet of " +
                         std::to_string(table.tokens.size() - m_settings.specialTokens.size()) +
                         " characters): ask for at least " + std::to_string(table.tokens.size()) +
                         ".");
    BpeTrainingWords spelled = spellWords(words, table);
    BpeTrainingWords::PairCounts pairCounts;
    BpeTrainingWords::PairWords where;
    spelled.countPairs(pairCounts, where);
    BpePairQueue queue;
    queuePairs(where, pairCounts, queue);

    BpeTrainingResult result;
    result.stop = BpeTrainingResult::Stop::VocabularyFull;
    std::vector<BpePair> merged;
    while (table.tokens.size() < wanted) {
        if (queue.empty()) {
            result.stop = BpeTrainingResult::Stop::NoPairLeft;
            break;
        }
        BpePairQueue::Entry top = queue.pop();
        const int64_t count = pairCounts.at(top.pair);
        assert(count >= 0);
        if (top.count != static_cast<uint64_t>(count)) { // stale: back in with today's count
            top.count = static_cast<uint64_t>(count);
            queue.push(std::move(top));
            continue;
        }
        if (top.count < 1 || m_settings.minFrequency > top.count) {
            result.stop = top.count < 1 ? BpeTrainingResult::Stop::NoPairLeft
                                        : BpeTrainingResult::Stop::MinFrequency;
            break;
        }
        const uint32_t id =
            table.add(table.tokens[leftOf(top.pair)] + table.tokens[rightOf(top.pair)]);
        merged.push_back(top.pair);
        mergeEverywhere(top, id, spelled, pairCounts, where);
        queuePairs(where, pairCounts, queue);
    }
    result.merges = mergeList(merged, table);
    result.tokens = std::move(table.tokens);
    result.specialTokens = m_settings.specialTokens;
    result.vocabularySizeAsked = m_settings.vocabularySize;
    return result;
}

} // namespace headlens
