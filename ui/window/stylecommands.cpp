// StyleCommands: each View menu choice changes one field of the style and applies the whole.
#include "window/stylecommands.h"

#include "plot/colorrange.h"
#include "window/appearance.h"
#include "window/mainactions.h"

#include <QAction>
#include <QSettings>
#include <QWidget>

#include <algorithm>

namespace headlens {

StyleCommands::StyleCommands(MainActions *actions, QWidget *restyled, QObject *parent)
    : QObject(parent), m_actions(actions), m_restyled(restyled)
{
    connect(actions, &MainActions::colormapChosen, this,
            [this](Colormap map) { change([map](PlotStyle &s) { s.colormap = map; }); });
    connect(actions, &MainActions::colorScaleChosen, this,
            [this](ColorScaleMode mode) { change([mode](PlotStyle &s) { s.colorScale = mode; }); });
    connect(actions->dark, &QAction::toggled, this,
            [this](bool on) { change([on](PlotStyle &s) { s.dark = on; }); });
    connect(actions->presentation, &QAction::toggled, this, [this] { change({}); });
    connect(actions->zoomIn, &QAction::triggered, this, [this] { zoomTo(m_zoom * 1.15); });
    connect(actions->zoomOut, &QAction::triggered, this, [this] { zoomTo(m_zoom / 1.15); });
    connect(actions->zoomReset, &QAction::triggered, this, [this] { zoomTo(1.0); });
}

void StyleCommands::zoomTo(double zoom)
{
    m_zoom = std::clamp(zoom, 0.6, 3.0);
    change({});
}

void StyleCommands::change(const std::function<void(PlotStyle &)> &change)
{
    PlotStyle style = m_style;
    if (change)
        change(style);
    const double presentation = m_actions->presentation->isChecked() ? 1.6 : 1.0;
    style.fontScale = presentation * m_zoom;
    Appearance::apply(style.dark, presentation);
    // The style sheet kept the palette its widgets had when the font last changed: set again,
    // it polishes them in the theme now applied.
    const QString sheet = m_restyled->styleSheet();
    m_restyled->setStyleSheet(QString());
    m_restyled->setStyleSheet(sheet);
    m_actions->setColormap(style.colormap);
    m_actions->setColorScale(style.colorScale);
    m_style = style;
    emit styleChanged(style);
}

void StyleCommands::restore(const QSettings &settings)
{
    m_actions->dark->setChecked(settings.value("view/dark", false).toBool());
    const Colormap map = Colormaps::fromName(settings.value("view/colormap").toString());
    // Before the three-way choice, a checkbox stored "per head" as view/perHeadScale.
    const ColorScaleMode scale =
        settings.contains("view/colorScale")
            ? ColorRange::modeFromName(settings.value("view/colorScale").toString())
        : settings.value("view/perHeadScale", false).toBool() ? ColorScaleMode::PerHead
                                                              : ColorScaleMode::Shown;
    change([map, scale](PlotStyle &s) {
        s.colormap = map;
        s.colorScale = scale;
    });
}

void StyleCommands::store(QSettings &settings) const
{
    settings.setValue("view/colorScale", ColorRange::modeName(m_style.colorScale));
    settings.remove("view/perHeadScale");
    settings.setValue("view/dark", m_style.dark);
    settings.setValue("view/colormap", Colormaps::name(m_style.colormap));
}

} // namespace headlens
