// StaleFade: a veil of the window's background over a picture that no longer matches the settings.
#pragma once

#include <QWidget>

namespace headlens {

/// Covers its parent (the picture) whole, above the parent's children, and follows its size;
/// hidden until shown. The picture under it is drawn once, as always, and shows through at
/// kPictureOpacity: one blend with the background. (A QGraphicsOpacityEffect on the picture
/// drew its translucent result over what the window had there before, the unfaded picture
/// in its old layout: two grids, token labels doubled.) Mouse events pass through to the
/// picture.
class StaleFade : public QWidget
{
    Q_OBJECT
public:
    static constexpr double kPictureOpacity = 0.45;

    explicit StaleFade(QWidget *picture);

protected:
    void paintEvent(QPaintEvent *event) override;
    void showEvent(QShowEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace headlens
