// PatchingMapView: a form of four boxes over the RankingHeatmap of PatchingMap::restored.
#include "interventions/patchingmapview.h"

#include "interventions/positionpatchplot.h"
#include "interventions/rankingheatmap.h"
#include "views/tokennumber.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace headlens {

PatchingMapView::PatchingMapView(QWidget *parent) : QWidget(parent)
{
    auto *about = new QLabel(
        tr("<b>Patching map</b> — each head's output from one run put into the other, one head "
           "at a time. Clean into corrupted: the share of logit(answer) − logit(wrong) it brings "
           "back (1: all of the clean difference, 0: none), the heads that are enough. Corrupted "
           "into clean: the share it takes away, the heads the answer cannot do without. The "
           "texts must have as many tokens; the answers must be one token each (GPT-2's words "
           "start with a space). Below the map, the strongest head patched at one position at "
           "a time: where in the text it carries the answer."),
        this);
    about->setWordWrap(true);
    auto box = [this](const char *name) {
        auto *edit = new QLineEdit(this);
        edit->setObjectName(name);
        return edit;
    };
    m_clean = box("patchClean");
    m_corrupted = box("patchCorrupted");
    m_answer = box("patchAnswer");
    m_wrong = box("patchWrong");
    auto *form = new QFormLayout;
    form->addRow(tr("Clean text"), m_clean);
    form->addRow(tr("Corrupted text"), m_corrupted);
    auto *answers = new QHBoxLayout;
    answers->addWidget(m_answer);
    answers->addWidget(new QLabel(tr("wrong answer"), this));
    answers->addWidget(m_wrong);
    form->addRow(tr("Answer"), answers);
    m_direction = new QComboBox(this);
    m_direction->setObjectName("patchDirection");
    m_direction->addItem(tr("clean → corrupted: which heads restore the answer"),
                         int(PatchDirection::CleanIntoCorrupt));
    m_direction->addItem(tr("corrupted → clean: which heads it cannot do without"),
                         int(PatchDirection::CorruptIntoClean));
    form->addRow(tr("Patch"), m_direction);
    m_compute = new QPushButton(tr("Compute patching map"), this);
    m_compute->setObjectName("computePatching");
    m_example = new QPushButton(tr("Indirect-object example (Wang et al. 2022)"), this);
    m_example->setObjectName("patchingExample");
    m_example->setEnabled(false);
    m_example->setToolTip(tr("Open a GPT-2 to use it: the example's names are one GPT-2 token"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_compute);
    buttons->addWidget(m_example);
    buttons->addStretch(1);
    m_runs = new QLabel(this);
    m_runs->setObjectName("patchRuns");
    m_runs->setWordWrap(true);
    m_runs->hide(); // until a map has been computed
    m_heatmap = new RankingHeatmap(this);
    m_positions = new PositionPatchPlot(this);
    m_positions->setObjectName("patchPositions");
    m_positions->hide(); // until a map has been computed
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(about);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_runs);
    layout->addWidget(m_heatmap, 3);
    layout->addWidget(m_positions, 1);
    connect(m_compute, &QPushButton::clicked, this, [this] {
        m_askedClean = m_clean->text();
        m_askedCorrupted = m_corrupted->text();
        emit computeRequested();
    });
    connect(m_example, &QPushButton::clicked, this, &PatchingMapView::fillIndirectObjectExample);
}

void PatchingMapView::fillIndirectObjectExample()
{
    RankingRequest example;
    example.cleanText = "When Mary and John went to the store, John gave a drink to";
    example.answer = " Mary";
    example.wrong = " John";
    example.direction = PatchDirection(m_direction->currentData().toInt());
    fill(example, "When John and Mary went to the store, Mary gave a drink to");
}

void PatchingMapView::fill(const RankingRequest &request, const QString &corrupted)
{
    m_clean->setText(QString::fromStdString(request.cleanText));
    m_corrupted->setText(corrupted);
    m_answer->setText(QString::fromStdString(request.answer));
    m_wrong->setText(QString::fromStdString(request.wrong));
    m_direction->setCurrentIndex(m_direction->findData(int(request.direction)));
}

void PatchingMapView::setExampleAvailable(bool available)
{
    m_example->setEnabled(available);
}

RankingRequest PatchingMapView::request() const
{
    RankingRequest request;
    request.kind = RankingRequest::Kind::Patching;
    request.cleanText = m_clean->text().toStdString();
    if (!m_corrupted->text().trimmed().isEmpty())
        request.corruptText = m_corrupted->text().toStdString();
    request.answer = m_answer->text().toStdString();
    request.wrong = m_wrong->text().toStdString();
    request.direction = PatchDirection(m_direction->currentData().toInt());
    return request;
}

QString PatchingMapView::corrupted() const
{
    return m_corrupted->text();
}

void PatchingMapView::setPatching(std::shared_ptr<const PatchingMap> patching)
{
    m_patching = std::move(patching);
    m_heatmap->setRunning(false);
    if (!m_patching)
        return;
    const bool restoring = m_patching->direction == PatchDirection::CleanIntoCorrupt;
    // The place whose logits the difference reads, named as the bars below name it.
    const size_t at = size_t(m_patching->position);
    const QString readAt = TokenNumber::named(
        m_patching->position, at < m_patching->positionTokens.size()
                                  ? QString::fromStdString(m_patching->positionTokens[at])
                                  : QString());
    m_heatmap->setValues(m_patching->restored,
                         (restoring ? tr("Share of the clean logit difference restored by "
                                         "patching each head's clean output into the corrupted "
                                         "run")
                                    : tr("Share of the clean logit difference removed by "
                                         "patching each head's corrupted output into the clean "
                                         "run")) +
                             tr(" — clean %1, corrupted %2 (at %3)")
                                 .arg(m_patching->cleanMetric, 0, 'f', 3)
                                 .arg(m_patching->corruptMetric, 0, 'f', 3)
                                 .arg(readAt),
                         restoring ? tr("restored") : tr("removed"));
    m_positions->setPatching(*m_patching);
    m_positions->show();
    // Which run is which: the corrupted one exists only here, not in the other tabs.
    const QString corruptText = m_askedCorrupted.trimmed().isEmpty()
                                    ? tr("the workspace's text")
                                    : tr("“%1”").arg(m_askedCorrupted);
    const QString clean =
        tr("the clean run “%1” (%2)").arg(m_askedClean).arg(m_patching->cleanMetric, 0, 'f', 3);
    const QString corrupt = tr("the corrupted run of %1 (%2)")
                                .arg(corruptText)
                                .arg(m_patching->corruptMetric, 0, 'f', 3);
    m_runs->setText(tr("Each head's output from %1 into %2, whose tokens the bars show; "
                       "logit(answer) − logit(wrong) in brackets. The other tabs still show "
                       "the workspace's text.")
                        .arg(restoring ? clean : corrupt, restoring ? corrupt : clean));
    m_runs->show();
}

void PatchingMapView::setPlotStyle(const PlotStyle &style)
{
    m_heatmap->setPlotStyle(style);
    m_positions->setPlotStyle(style);
}

} // namespace headlens
