// KvGroupFrame: paints its own rounded band, lighter or darker than the theme's background.
#include "views/kvgroupframe.h"

#include "plot/headcolors.h"

#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace headlens {

namespace {
constexpr int kMargin = 6;
} // namespace

KvGroupFrame::KvGroupFrame(int kvHead, int firstHead, int lastHead, QWidget *parent)
    : QFrame(parent), m_kvHead(kvHead)
{
    setObjectName(QString("kvGroup%1").arg(kvHead + 1));
    // As big as its heatmaps (each of a fixed size), no bigger: a frame that took the grid's
    // height left a band of empty frame under its heads.
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(kMargin, 2, kMargin, kMargin);
    layout->setSpacing(2);
    m_caption = new QLabel(this);
    m_caption->setText(firstHead == lastHead
                           ? tr("K/V head %1 · read by head %2").arg(kvHead + 1).arg(firstHead + 1)
                           : tr("K/V head %1 · shared by heads %2–%3")
                                 .arg(kvHead + 1)
                                 .arg(firstHead + 1)
                                 .arg(lastHead + 1));
    m_caption->setToolTip(tr("These query heads read the same keys and values: a decoder keeps "
                             "them once in its cache."));
    m_grid = new QGridLayout;
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(4);
    m_grid->setAlignment(Qt::AlignTop | Qt::AlignLeft); // heatmaps of the sizes they are given
    layout->addWidget(m_caption);
    layout->addLayout(m_grid, 1);
}

QString KvGroupFrame::caption() const
{
    return m_caption->text();
}

void KvGroupFrame::setLook(bool dark, double fontScale)
{
    m_dark = dark;
    QFont f = font();
    f.setPointSizeF(9.0 * fontScale);
    f.setBold(true);
    m_caption->setFont(f);
    QPalette palette = m_caption->palette();
    palette.setColor(QPalette::WindowText, dark ? QColor("#c9d3e0") : QColor("#34465c"));
    m_caption->setPalette(palette);
    update();
}

QSize KvGroupFrame::overhead() const
{
    return QSize(2 * kMargin, m_caption->sizeHint().height() + kMargin + 4);
}

void KvGroupFrame::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    // A band a little off the background, its edge clearly darker (lighter in the dark theme).
    const QColor background = HeadColors::background(m_dark);
    const QColor fill = m_dark ? background.lighter(135) : QColor("#e7edf5");
    const QColor edge = m_dark ? QColor("#8897aa") : QColor("#6f86a3");
    p.setPen(QPen(edge, 1.5));
    p.setBrush(fill);
    p.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 8, 8);
}

} // namespace headlens
