// TrainingTokens: bytes as they are, or a BPE learned from the text and then applied to it.
#include "train/trainingtokens.h"

#include "text/bytetokenizerjson.h"
#include "text/tokenizerjson.h"
#include "text/train/bpetokenizerjsonwriter.h"
#include "text/train/bpetrainer.h"
#include "util/inputerror.h"

#include <cassert>

namespace headlens {

TrainingTokens::TrainingTokens(std::string json, std::string name)
    : m_json(std::move(json)), m_name(std::move(name)),
      m_tokenizer(TokenizerJson::fromText(m_json, m_name))
{}

TrainingTokens TrainingTokens::bytes(const std::string &text)
{
    TrainingTokens tokens(byteTokenizerJson(), "bytes");
    // The byte tokenizer's id is the byte itself: no pass of the pipeline over the text.
    tokens.m_ids.reserve(text.size());
    tokens.m_offsets.reserve(text.size() + 1);
    for (size_t i = 0; i < text.size(); ++i) {
        tokens.m_ids.push_back(static_cast<unsigned char>(text[i]));
        tokens.m_offsets.push_back(uint32_t(i));
    }
    tokens.m_offsets.push_back(uint32_t(text.size()));
    return tokens;
}

TrainingTokens TrainingTokens::bpe(const std::string &text, int vocabulary)
{
    if (vocabulary < kMinBpeVocabulary || vocabulary > kMaxBpeVocabulary)
        throw InputError("A BPE vocabulary holds the 256 byte symbols and <|endoftext|>, and at "
                         "most " +
                         std::to_string(kMaxBpeVocabulary) + " tokens train here: choose " +
                         std::to_string(kMinBpeVocabulary) + " to " +
                         std::to_string(kMaxBpeVocabulary) + ", not " + std::to_string(vocabulary) +
                         ".");
    const BpeTrainingResult result =
        BpeTrainer(BpeTrainerSettings::gpt2(vocabulary)).train(std::vector<std::string>{text});
    if (auto shortfall = result.shortfall())
        throw InputError(*shortfall);
    TrainingTokens tokens(BpeTokenizerJsonWriter::toJson(result),
                          "BPE of " + std::to_string(vocabulary) + " tokens");
    tokens.encode(text);
    return tokens;
}

void TrainingTokens::encode(const std::string &text)
{
    m_ids = m_tokenizer.encode(text, false);
    std::vector<size_t> length(size_t(vocabulary()), 0);
    for (int id = 0; id < vocabulary(); ++id)
        length[size_t(id)] = m_tokenizer.tokenBytes(id).size();
    m_offsets.reserve(m_ids.size() + 1);
    size_t at = 0;
    for (int id : m_ids) {
        m_offsets.push_back(uint32_t(at));
        at += length[size_t(id)];
    }
    m_offsets.push_back(uint32_t(at));
    // Byte-level pieces without a normalizer spell the text again, byte for byte.
    assert(at == text.size());
}

std::vector<std::pair<size_t, size_t>> TrainingTokens::spans(size_t first, size_t count) const
{
    std::vector<std::pair<size_t, size_t>> out;
    out.reserve(count);
    for (size_t i = first; i < first + count; ++i)
        out.push_back({m_offsets[i], m_offsets[i + 1]});
    return out;
}

std::string TrainingTokens::decode(const std::vector<int> &ids) const
{
    return m_tokenizer.decode(ids);
}

std::vector<std::string> TrainingTokens::labels() const
{
    std::vector<std::string> out;
    out.reserve(size_t(vocabulary()));
    for (int id = 0; id < vocabulary(); ++id)
        out.push_back(m_tokenizer.displayLabel(id));
    return out;
}

} // namespace headlens
