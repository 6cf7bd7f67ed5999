// KvGroupFrame: a rounded, tinted frame around the query heads that share one K/V head.
#pragma once

#include <QFrame>

class QGridLayout;
class QLabel;

namespace headlens {

/// Holds the heatmaps of one group of grouped-query attention (heads g·h/h_kv .. (g+1)·h/h_kv -
/// 1, 0-based) under a caption naming the K/V head they read, so the grouping shows in the
/// shape of the grid and not only in colour.
class KvGroupFrame : public QFrame
{
    Q_OBJECT
public:
    /// `kvHead` 0-based; `firstHead`..`lastHead` the 0-based query heads of the group.
    KvGroupFrame(int kvHead, int firstHead, int lastHead, QWidget *parent = nullptr);

    int kvHead() const { return m_kvHead; }
    QGridLayout *grid() const { return m_grid; }
    QString caption() const;
    void setLook(bool dark, double fontScale);
    /// Room the frame takes around its heatmaps: margins and the caption.
    QSize overhead() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int m_kvHead;
    bool m_dark = false;
    QLabel *m_caption = nullptr;
    QGridLayout *m_grid = nullptr;
};

} // namespace headlens
