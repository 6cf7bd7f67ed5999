// Appearance: light or dark palette and the application font size (presentation mode, zoom).
#pragma once

namespace headlens {

class Appearance
{
public:
    /// Applies to the whole application: Fusion style with a light or dark palette, and the
    /// default font scaled by `fontScale` (1 = the system size).
    static void apply(bool dark, double fontScale);
};

} // namespace headlens
