// HeadScorer: every head of the text on screen scored against one pattern, off the UI thread
// when the text or the model is large.
#pragma once

#include "attention/trace.h"
#include "model/modelrun.h"
#include "runner/newestinpool.h"
#include "stories/storytext.h"
#include "train/headpatternscores.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace headlens {

/// What to score: the trace on screen and, for a model, its run (every layer); the story the
/// text is, when it is one (the relation patterns need it).
struct HeadScoreRequest
{
    HeadPattern pattern = HeadPattern::PreviousToken;
    std::shared_ptr<const Trace> trace;
    int batch = 0;
    std::shared_ptr<const ModelRun> run; ///< null: the built-in layer of `trace`
    std::optional<StoryText> story;      ///< the text the trace read, with its relations
};

/// The scores, or the sentence saying why there are none (then scores.count is 0).
struct HeadScoreResult
{
    HeadPatternScores scores;
    QString problem;
    int shownLayer = 0; ///< the layer the heads grid shows (the trace's)
};

/// Scores are cheap for a sentence (about a microsecond a head) but induction reads every
/// earlier token of every query of every head: 144 heads at 1,024 tokens would hold the UI
/// thread for a tenth of a second, so requests that large go to ViewWorkPool and only the
/// newest comes back (`ready`).
class HeadScorer : public QObject
{
    Q_OBJECT
public:
    explicit HeadScorer(QObject *parent = nullptr);

    /// Emits `ready` before returning when the heads hold at most kInlineCells weights in all.
    void request(HeadScoreRequest request);
    /// Forgets the request running now: its result will not come (the pattern was put off).
    void drop() { m_pool.drop(); }
    /// The result of `request`, computed where it is called.
    static HeadScoreResult score(const HeadScoreRequest &request);

    static constexpr int64_t kInlineCells = int64_t(1) << 20;

signals:
    void ready(const headlens::HeadScoreResult &result);

private:
    NewestInPool<HeadScoreResult> m_pool;
};

} // namespace headlens
