// HeadScorer: the run's (or the trace's) weights, token ids and token spans handed to scoreHeads.
#include "views/headscorer.h"

#include "model/openedmodel.h"
#include "stories/tokenspans.h"
#include "text/tokenizer.h"

#include <map>

namespace headlens {

namespace {

/// The built-in layer's tokens as ids (the same word, the same id) for the induction score.
std::vector<int> wordIds(const std::vector<std::string> &tokens)
{
    std::map<std::string, int> ids;
    std::vector<int> out;
    for (const std::string &token : tokens)
        out.push_back(ids.emplace(token, int(ids.size())).first->second);
    return out;
}

/// The bytes each token stands for: the model's tokenizer, or the built-in layer's (which
/// reads the text's first line as Tokenizer::tokenize splits it).
std::vector<std::string> tokenBytesOf(const HeadScoreRequest &r, const std::string &text)
{
    std::vector<std::string> bytes;
    if (r.run) {
        const OpenedModel *model = r.run->source.model.get();
        for (int id : r.run->tokenIds)
            bytes.push_back(model ? model->tokenBytes(id) : std::string());
        return bytes;
    }
    const std::vector<std::string> lines = Tokenizer::splitLines(text);
    return lines.empty() ? bytes : Tokenizer::tokenize(lines.front(), r.trace->config.tokenizer);
}

} // namespace

HeadScorer::HeadScorer(QObject *parent)
    : QObject(parent), m_pool(this, [this](const HeadScoreResult &result) { emit ready(result); })
{}

void HeadScorer::request(HeadScoreRequest request)
{
    if (!request.trace)
        return;
    const int64_t n = request.trace->input.queryLengthOf(request.batch);
    const int64_t heads =
        request.run ? int64_t(request.run->layers) * request.run->heads : request.trace->heads();
    const bool here = heads * n * n <= kInlineCells;
    m_pool.start([request = std::move(request)] { return score(request); }, here);
}

HeadScoreResult HeadScorer::score(const HeadScoreRequest &r)
{
    HeadScoreResult result;
    result.scores.pattern = r.pattern;
    result.shownLayer = r.trace->layer;
    const int b = r.batch;
    const auto n = Eigen::Index(r.trace->input.queryLengthOf(b));
    if (!r.run && r.trace->input.keyLengthOf(b) != n) {
        result.problem = QObject::tr("the scores need a text attending to itself: turn "
                                     "cross-attention off");
        return result;
    }
    const std::vector<int> tokens =
        r.run ? r.run->tokenIds : wordIds(r.trace->input.tokens.at(size_t(b)));
    std::vector<std::pair<size_t, size_t>> spans;
    std::vector<StoryRelation> relations;
    if (relationKindOf(r.pattern)) {
        if (!r.story)
            return result; // the page says how to get a story
        const auto found = tokenSpans(r.story->text, tokenBytesOf(r, r.story->text));
        if (!found || Eigen::Index(found->size()) != n) {
            result.problem =
                QObject::tr("this model's tokens do not spell the story byte for byte, so its "
                            "relations cannot be placed on them");
            return result;
        }
        spans = *found;
        relations = r.story->relations;
    }
    const auto weightsOf = [&r, b, n](int layer, int head) -> Eigen::Ref<const RowMatrix> {
        if (r.run)
            return r.run->probabilities(layer, head);
        const ConstRowMatrixMap all =
            r.trace->tensor(keys::attentionWeights).matrix({int64_t(b), int64_t(head)});
        return all.topLeftCorner(n, n);
    };
    const bool causal = r.run ? r.run->causal : r.trace->config.causal;
    result.scores = scoreHeads(r.pattern, r.run ? r.run->layers : 1,
                               r.run ? r.run->heads : int(r.trace->heads()), weightsOf, tokens,
                               spans, relations, causal);
    if (result.scores.count == 0 && r.pattern == HeadPattern::Induction)
        result.problem =
            QObject::tr("no token repeats in this text: type a text that repeats itself");
    else if (result.scores.count == 0 && relationKindOf(r.pattern))
        result.problem = QObject::tr("this story has no %1 relation whose words are both in "
                                     "the text: press Story for another")
                             .arg(QString::fromUtf8(toString(r.pattern)));
    return result;
}

} // namespace headlens
