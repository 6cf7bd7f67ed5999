// StyleCommands: View > colormap, colour scale, dark, presentation and zoom, as one PlotStyle.
#pragma once

#include "plot/plotstyle.h"

#include <QObject>

#include <functional>

class QSettings;
class QWidget;

namespace headlens {

class MainActions;

/// Turns the View menu's choices into the application's look (palette, font size) and the
/// style every view draws with, and keeps them in QSettings between runs.
class StyleCommands : public QObject
{
    Q_OBJECT
public:
    /// `restyled` keeps a style sheet (the Controls' red frame of a problem) that must be set
    /// again after the palette changes.
    StyleCommands(MainActions *actions, QWidget *restyled, QObject *parent = nullptr);

    /// The style the views draw with now.
    const PlotStyle &style() const { return m_style; }
    /// Records a style set from outside (the window's setPlotStyle).
    void setStyle(const PlotStyle &style) { m_style = style; }

    /// Dark theme, colormap and colour scale as stored by store(); applies them.
    void restore(const QSettings &settings);
    void store(QSettings &settings) const;

signals:
    void styleChanged(const headlens::PlotStyle &style);

private:
    /// The current style changed by `change` (none: only presentation and zoom), applied.
    void change(const std::function<void(PlotStyle &)> &change);
    /// The font scale besides presentation mode, kept between 0.6 and 3.
    void zoomTo(double zoom);

    MainActions *m_actions;
    QWidget *m_restyled;
    PlotStyle m_style;
    double m_zoom = 1.0;
};

} // namespace headlens
