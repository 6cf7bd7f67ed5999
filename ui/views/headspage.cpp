// HeadsPage: a column of the strip (scrolled sideways), the score bar and a splitter of the grid
// and one head with the score table under it.
#include "views/headspage.h"

#include "model/openedmodel.h"
#include "stories/storygenerator.h"
#include "stories/storywindow.h"
#include "util/inputerror.h"
#include "views/headscorebar.h"
#include "views/headscorer.h"
#include "views/headscoretable.h"
#include "views/headsgridview.h"
#include "views/singleheadview.h"
#include "views/tokenstrip.h"
#include "views/tracereader.h"

#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace headlens {

namespace {

/// The built-in layer reads any sentence; a few sentences are what a lesson shows on a screen.
constexpr size_t kBuiltInStoryBytes = 120;
/// Stories tried for one with a relation of the kind being scored.
constexpr int kStoryAttempts = 32;

} // namespace

HeadsPage::HeadsPage(Selection *selection, QWidget *parent) : QWidget(parent)
{
    setObjectName("headsPage");
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_strip = new TokenStrip(this);
    m_strip->setSelection(selection);
    m_stripScroll = new QScrollArea(this);
    m_stripScroll->setWidget(m_strip);
    m_stripScroll->setWidgetResizable(true);
    m_stripScroll->setFrameShape(QFrame::NoFrame);
    m_stripScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stripScroll->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    fitStripHeight();
    m_grid = new HeadsGridView(this);
    m_grid->setSelection(selection);
    m_single = new SingleHeadView(this);
    m_single->setSelection(selection);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName("viewSplitter");
    splitter->addWidget(m_grid);
    splitter->addWidget(buildScores());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(m_stripScroll);
    layout->addWidget(m_scoreBar);
    layout->addWidget(splitter, 1);
    connect(m_grid, &HeadsGridView::hoverTextChanged, this, &HeadsPage::hoverTextChanged);
    connect(m_single, &SingleHeadView::hoverTextChanged, this, &HeadsPage::hoverTextChanged);
    rescore();
}

// The single head, and under it the table of every layer's scores while a pattern is chosen.
QWidget *HeadsPage::buildScores()
{
    m_scoreBar = new HeadScoreBar(this);
    m_scoreTable = new HeadScoreTable(this);
    m_scoreTable->hide();
    m_scorer = new HeadScorer(this);
    auto *column = new QWidget(this);
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_single, 1);
    // Under the single head, or at the top when no head is pinned.
    layout->addWidget(m_scoreTable, 0, Qt::AlignTop);
    connect(m_scoreBar, &HeadScoreBar::patternChanged, this, &HeadsPage::rescore);
    connect(m_scoreBar, &HeadScoreBar::storyRequested, this, &HeadsPage::makeStory);
    connect(m_scorer, &HeadScorer::ready, this, &HeadsPage::showScores);
    connect(m_scoreTable, &HeadScoreTable::headChosen, this, &HeadsPage::headChosen);
    return column;
}

void HeadsPage::insertBar(int index, QWidget *bar)
{
    static_cast<QVBoxLayout *>(layout())->insertWidget(index, bar);
}

void HeadsPage::setTrace(const std::shared_ptr<const Trace> &trace, int batchIndex)
{
    m_grid->setTrace(trace, batchIndex);
    m_single->setTrace(trace, batchIndex);
    m_strip->setTokens(TraceReader::queryLabels(*trace, batchIndex));
    m_trace = trace;
    m_batch = batchIndex;
    rescoreSoon();
}

void HeadsPage::setRun(std::shared_ptr<const ModelRun> run)
{
    m_run = std::move(run);
    rescoreSoon();
}

void HeadsPage::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    rescore();
}

void HeadsPage::setStory(const StoryText &story)
{
    // A text without relations (a file's window) is no story to score against.
    m_story = story.relations.empty() ? std::nullopt : std::optional<StoryText>(story);
    rescore();
}

bool HeadsPage::relationsHold() const
{
    return m_story && m_text == QString::fromStdString(m_story->text);
}

void HeadsPage::makeStory()
{
    // A model's text must fit its context in tokens: asked of its own tokenizer.
    const std::shared_ptr<const OpenedModel> model = m_run ? m_run->source.model : nullptr;
    const auto fits = [&model](const std::string &text) {
        if (!model)
            return text.size() <= kBuiltInStoryBytes;
        try {
            return int(model->encode(text).size()) <= model->maxTokens();
        } catch (const InputError &) {
            return false;
        }
    };
    // A window without relations, or without one of the kind being scored, is no use: the
    // next seeds write other stories (one in ten sentences has a pronoun, so a few do).
    const std::optional<HeadPattern> pattern = m_scoreBar->pattern();
    const auto kind = pattern ? relationKindOf(*pattern) : std::nullopt;
    const auto useful = [&kind](const StoryText &s) {
        return !s.relations.empty() && (!kind || relationCount(s.relations, *kind) > 0);
    };
    StoryText story;
    for (int attempt = 0; attempt < kStoryAttempts && !useful(story); ++attempt)
        story = storyWindow(StoryGenerator(m_storySeed++).generate(1), fits);
    if (story.text.empty())
        return;
    setStory(story);
    emit textWanted(QString::fromStdString(story.text));
}

void HeadsPage::rescoreSoon()
{
    if (m_rescorePending)
        return;
    m_rescorePending = true;
    QTimer::singleShot(0, this, [this] {
        m_rescorePending = false;
        rescore();
    });
}

void HeadsPage::rescore()
{
    const bool hold = relationsHold();
    std::array<int, 3> counts{};
    if (m_story)
        for (RelationKind kind :
             {RelationKind::Antecedent, RelationKind::Subject, RelationKind::Bracket})
            counts[size_t(kind)] = relationCount(m_story->relations, kind);
    const QString whyNot =
        m_story ? tr("The text changed since the story was written, so its relations no longer "
                     "hold: press Story for a new one, or undo the edit.")
                : tr("Relations exist only for a text HeadLens's story generator wrote: press "
                     "Story, or train a model on stories (Train > Language model) and use Open "
                     "in views.");
    m_scoreBar->setRelations(hold, whyNot, counts);
    const std::optional<HeadPattern> pattern = m_scoreBar->pattern();
    if (!pattern) {
        clearScores(QString());
        return;
    }
    if (relationKindOf(*pattern) && !hold) {
        clearScores(whyNot);
        return;
    }
    if (!m_trace)
        return;
    // A model's run and its traced layer come one after the other; until both are here the
    // scores wait (a run of another layer or text would number the heads wrongly).
    const bool runMatches =
        m_run && m_run->heads == m_trace->heads() && m_run->source.layer == m_trace->layer &&
        int64_t(m_run->tokenIds.size()) == m_trace->input.queryLengthOf(m_batch);
    if (m_run && !runMatches)
        return;
    HeadScoreRequest request;
    request.pattern = *pattern;
    request.trace = m_trace;
    request.batch = m_batch;
    request.run = m_run;
    if (hold)
        request.story = m_story;
    m_scorer->request(std::move(request));
}

void HeadsPage::showScores(const HeadScoreResult &result)
{
    const HeadPatternScores &s = result.scores;
    if (m_scoreBar->pattern() != std::optional<HeadPattern>(s.pattern))
        return; // scored for a pattern since put off
    if (s.count == 0 || s.scores.empty()) {
        clearScores(result.problem);
        return;
    }
    std::vector<QString> notes;
    const int layer = std::clamp(result.shownLayer, 0, s.layers - 1);
    for (int head = 0; head < s.heads; ++head)
        notes.push_back(QString::fromUtf8(toString(s.pattern)) + QLatin1Char(' ') +
                        HeadScoreTable::cellTextOf(s, s.score(layer, head)));
    const QString name = HeadScoreTable::scoreName(s.pattern);
    m_grid->setHeadNotes(std::move(notes),
                         tr("%1: see the table under the single head; chance %2, ★ the strongest")
                             .arg(name)
                             .arg(s.chance, 0, 'f', 2));
    m_scoreTable->setScores(s, layer);
    m_scoreTable->show();
    int bestIndex = 0;
    for (int i = 1; i < int(s.scores.size()); ++i)
        if (s.scores[size_t(i)] > s.scores[size_t(bestIndex)])
            bestIndex = i;
    m_scoreBar->setStatus(tr("Each head's %1 on this text (chance %2) · highest: layer %3 head "
                             "%4, %5")
                              .arg(name)
                              .arg(s.chance, 0, 'f', 2)
                              .arg(bestIndex / s.heads)
                              .arg(bestIndex % s.heads + 1)
                              .arg(s.scores[size_t(bestIndex)], 0, 'f', 2));
}

void HeadsPage::clearScores(const QString &status)
{
    m_scorer->drop();
    m_grid->setHeadNotes({}, QString());
    m_scoreTable->hide();
    m_scoreBar->setStatus(status);
}

void HeadsPage::setPlotStyle(const PlotStyle &style)
{
    m_grid->setPlotStyle(style);
    m_single->setPlotStyle(style);
    m_strip->setPlotStyle(style);
    fitStripHeight();
}

void HeadsPage::fitStripHeight()
{
    m_stripScroll->setFixedHeight(m_strip->sizeHint().height() + 14);
}

} // namespace headlens
