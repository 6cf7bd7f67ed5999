// HeadsPage: the "Heads" tab: the token strip above the heads grid and the single head beside it,
// and the heads scored against a pattern (HeadScoreBar, HeadScoreTable).
#pragma once

#include "attention/trace.h"
#include "model/modelrun.h"
#include "plot/plotstyle.h"
#include "stories/storytext.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>

class QScrollArea;

namespace headlens {

class HeadScoreBar;
struct HeadScoreResult;
class HeadScorer;
class HeadScoreTable;
class HeadsGridView;
class Selection;
class SingleHeadView;
class TokenStrip;

/// The three views share `selection`, so hovering in one highlights the others. Bars that
/// belong to these views (the model note, the ablation effect) go in with insertBar().
/// "Score heads against" puts each head's score in its caption and every layer's in a table;
/// the story relations count only while the text is the story they were written for (setStory,
/// or the bar's Story button), which the page knows from setText.
class HeadsPage : public QWidget
{
    Q_OBJECT
public:
    explicit HeadsPage(Selection *selection, QWidget *parent = nullptr);

    TokenStrip *strip() const { return m_strip; }
    HeadsGridView *grid() const { return m_grid; }
    SingleHeadView *single() const { return m_single; }
    HeadScoreBar *scoreBar() const { return m_scoreBar; }
    HeadScoreTable *scoreTable() const { return m_scoreTable; }
    /// `bar` at row `index` of the page's column (0 = above the strip).
    void insertBar(int index, QWidget *bar);
    /// Batch item `batchIndex` of `trace` in the grid, the single head and the strip's tokens.
    void setTrace(const std::shared_ptr<const Trace> &trace, int batchIndex);
    /// The model's run of the text (every layer, for the scores); null for the built-in layer.
    void setRun(std::shared_ptr<const ModelRun> run);
    /// The text box's text as it is now: the story's relations hold while it is the story's.
    void setText(const QString &text);
    /// A text the story generator wrote, with its relations; the caller puts it in the text box.
    /// Without relations it is no story: the relation patterns stay off.
    void setStory(const StoryText &story);
    /// A short generated story (a new one each time) that fits the model's context, with a
    /// relation of the kind being scored when one is: the story, and textWanted with it.
    void makeStory();
    /// The story last set (its relations hold while relationsHold()).
    const std::optional<StoryText> &story() const { return m_story; }
    /// Whether the story's relations hold for the text now.
    bool relationsHold() const;
    /// The three views' style; the strip's row follows its height at the new font.
    void setPlotStyle(const PlotStyle &style);

signals:
    /// What is under the pointer in the grid or the single head (for the status bar).
    void hoverTextChanged(const QString &text);
    /// Put `text` in the text box (the story of makeStory).
    void textWanted(const QString &text);
    /// A head was clicked in the score table: show layer `layer` with head `head` pinned.
    void headChosen(int layer, int head);

private:
    /// The strip's row as tall as the strip at the current font (one line, no scroll bar).
    void fitStripHeight();
    QWidget *buildScores();
    /// The relation items and the scores again, once the events pending now are handled (a
    /// trace and its model run come one after the other).
    void rescoreSoon();
    void rescore();
    void showScores(const HeadScoreResult &result);
    /// No numbers on the heads, no table; `status` says why.
    void clearScores(const QString &status);

    TokenStrip *m_strip = nullptr;
    QScrollArea *m_stripScroll = nullptr;
    HeadsGridView *m_grid = nullptr;
    SingleHeadView *m_single = nullptr;
    HeadScoreBar *m_scoreBar = nullptr;
    HeadScoreTable *m_scoreTable = nullptr;
    HeadScorer *m_scorer = nullptr;
    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    std::shared_ptr<const ModelRun> m_run;
    QString m_text;
    std::optional<StoryText> m_story;
    uint64_t m_storySeed = 1; ///< the next Story's seed (seed 0 is the training corpus)
    bool m_rescorePending = false;
};

} // namespace headlens
