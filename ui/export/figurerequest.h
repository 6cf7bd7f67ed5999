// FigureRequest: what a figure shows, how large it is on paper and, for PNG, its resolution.
#pragma once

#include <QSizeF>

namespace headlens {

/// headlens-cli --figure / --figure-size / --dpi and File > Export view.
struct FigureRequest
{
    enum class Content
    {
        Heads,       ///< the grid of every head
        Head,        ///< one head, `index`
        Model,       ///< every layer x head of an opened model
        Step,        ///< one pipeline step, `index`, laid out as on the handout
        Atlas,       ///< the head atlas of an opened model: every head's type
        Lens,        ///< the logit lens of an opened model's run
        Rollout,     ///< the attention rollout through each layer of an opened model's run
        Attribution, ///< each head's direct logit attribution in an opened model's run
        Circuits,    ///< a head's QK and OV circuits on the run's tokens
    };

    Content content = Content::Heads;
    int index = 0;           ///< the head or the step, 0-based
    QSizeF inches{0.0, 0.0}; ///< 0 x 0: defaultInches(content)
    int dpi = 300;           ///< pixels per inch of a PNG (its pHYs says so too)

    /// 16 x 10 cm for the heads, 10 x 9 cm for one head, 16 x 12 cm for a model or an
    /// analysis of it (atlas, lens, rollout, attribution, circuits), an A4 page across (27.7 x 19
    /// cm) for a step.
    static QSizeF defaultInches(Content content)
    {
        const double cm = 1.0 / 2.54;
        switch (content) {
        case Content::Head:
            return QSizeF(10 * cm, 9 * cm);
        case Content::Model:
        case Content::Atlas:
        case Content::Lens:
        case Content::Rollout:
        case Content::Attribution:
        case Content::Circuits:
            return QSizeF(16 * cm, 12 * cm);
        case Content::Step:
            return QSizeF(27.7 * cm, 19 * cm);
        case Content::Heads:
            break;
        }
        return QSizeF(16 * cm, 10 * cm);
    }
    QSizeF size() const { return inches.isNull() ? defaultInches(content) : inches; }
};

} // namespace headlens
