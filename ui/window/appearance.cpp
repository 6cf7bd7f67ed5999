// Appearance: remembers the system font once so repeated scaling does not compound.
#include "window/appearance.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace headlens {

namespace {

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor("#2b2f36"));
    p.setColor(QPalette::WindowText, QColor("#e6e6e6"));
    p.setColor(QPalette::Base, QColor("#1f2227"));
    p.setColor(QPalette::AlternateBase, QColor("#2b2f36"));
    p.setColor(QPalette::Text, QColor("#e6e6e6"));
    p.setColor(QPalette::Button, QColor("#353a42"));
    p.setColor(QPalette::ButtonText, QColor("#e6e6e6"));
    p.setColor(QPalette::Highlight, QColor("#3d7eff"));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor("#353a42"));
    p.setColor(QPalette::ToolTipText, QColor("#e6e6e6"));
    p.setColor(QPalette::PlaceholderText, QColor("#9aa0a6"));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor("#777"));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor("#777"));
    return p;
}

} // namespace

void Appearance::apply(bool dark, double fontScale)
{
    auto *app = qobject_cast<QApplication *>(QCoreApplication::instance());
    if (!app)
        return;
    if (!app->property("headlensBaseFont").isValid())
        app->setProperty("headlensBaseFont", QApplication::font());
    QFont font = app->property("headlensBaseFont").value<QFont>();
    font.setPointSizeF(font.pointSizeF() * fontScale);
    QApplication::setFont(font);
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
}

} // namespace headlens
