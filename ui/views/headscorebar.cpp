// HeadScoreBar: a combo box whose relation items follow the text, a button, a wrapped sentence.
#include "views/headscorebar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStandardItemModel>

namespace headlens {

namespace {

constexpr std::array<HeadPattern, 5> kPatterns = {HeadPattern::PreviousToken,
                                                  HeadPattern::Induction, HeadPattern::Antecedent,
                                                  HeadPattern::Subject, HeadPattern::Bracket};

QString patternText(HeadPattern pattern)
{
    switch (pattern) {
    case HeadPattern::PreviousToken:
        return QObject::tr("Previous token");
    case HeadPattern::Induction:
        return QObject::tr("Induction");
    case HeadPattern::Antecedent:
        return QObject::tr("Antecedent (pronoun → name)");
    case HeadPattern::Subject:
        return QObject::tr("Subject (verb → noun)");
    case HeadPattern::Bracket:
        return QObject::tr("Bracket (closer → opener)");
    }
    return {};
}

QString patternToolTip(HeadPattern pattern)
{
    switch (pattern) {
    case HeadPattern::PreviousToken:
        return QObject::tr("Each head's mean weight on the token right before the query");
    case HeadPattern::Induction:
        return QObject::tr("For each token seen before, the weight on the token that followed "
                           "its earlier occurrence (Olsson et al. 2022)");
    case HeadPattern::Antecedent:
        return QObject::tr("From each pronoun of the story, the share of attention on the name "
                           "it stands for");
    case HeadPattern::Subject:
        return QObject::tr("From each verb after a relative clause, the share of attention on "
                           "its subject noun");
    case HeadPattern::Bracket:
        return QObject::tr("From each closing quote or bracket, the share of attention on its "
                           "opener");
    }
    return {};
}

} // namespace

HeadScoreBar::HeadScoreBar(QWidget *parent) : QWidget(parent)
{
    setObjectName("headScoreBar");
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(tr("Score heads against"), this);
    m_pattern = new QComboBox(this);
    m_pattern->setObjectName("scorePattern");
    m_pattern->addItem(tr("None"));
    for (HeadPattern pattern : kPatterns) {
        m_pattern->addItem(patternText(pattern), int(pattern));
        m_pattern->setItemData(m_pattern->count() - 1, patternToolTip(pattern), Qt::ToolTipRole);
    }
    m_pattern->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    label->setBuddy(m_pattern);
    m_story = new QPushButton(tr("Story"), this);
    m_story->setObjectName("scoreStory");
    m_story->setToolTip(tr("Put a short story of HeadLens's generator in the text box, with the "
                           "relations it wrote down (which name each pronoun means, each verb's "
                           "subject, each bracket's opener), cut to fit the model's context"));
    m_status = new QLabel(this);
    m_status->setObjectName("scoreStatus");
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(label);
    layout->addWidget(m_pattern);
    layout->addWidget(m_story);
    layout->addWidget(m_status, 1);
    connect(m_pattern, &QComboBox::currentIndexChanged, this, &HeadScoreBar::patternChanged);
    connect(m_story, &QPushButton::clicked, this, &HeadScoreBar::storyRequested);
}

std::optional<HeadPattern> HeadScoreBar::pattern() const
{
    const QVariant data = m_pattern->currentData();
    if (!data.isValid())
        return std::nullopt;
    return HeadPattern(data.toInt());
}

void HeadScoreBar::setPattern(std::optional<HeadPattern> pattern)
{
    m_pattern->setCurrentIndex(pattern ? m_pattern->findData(int(*pattern)) : 0);
}

void HeadScoreBar::setRelations(bool available, const QString &whyNot,
                                const std::array<int, 3> &counts)
{
    auto *model = qobject_cast<QStandardItemModel *>(m_pattern->model());
    for (int row = 0; row < m_pattern->count(); ++row) {
        const QVariant data = m_pattern->itemData(row);
        const auto kind = data.isValid() ? relationKindOf(HeadPattern(data.toInt())) : std::nullopt;
        if (!kind)
            continue;
        const HeadPattern pattern = HeadPattern(data.toInt());
        QStandardItem *item = model->item(row);
        item->setEnabled(available);
        item->setText(available ? tr("%1 · %n in the text", nullptr, counts[size_t(*kind)])
                                      .arg(patternText(pattern))
                                : patternText(pattern));
        item->setToolTip(available ? patternToolTip(pattern) : whyNot);
    }
}

void HeadScoreBar::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setToolTip(text);
}

} // namespace headlens
