// RegionExport: exact weights for a small square region, the cells drawn otherwise.
#include "longtext/regionexport.h"

#include "io/npyfile.h"
#include "longtext/tiledheadview.h"
#include "model/tiledattention.h"
#include "util/inputerror.h"

#include <algorithm>

namespace headlens {

RegionExport::RegionExport(const TiledHeadView &view, HeadTiles::Pooling pooling, int64_t exactSide)
    : m_view(view), m_pooling(pooling)
{
    if (!view.run() || view.head() < 0) {
        m_problem = tr("There is no long text to save from.");
        return;
    }
    const TileRegion covered = view.viewport().covered();
    const TilePicture &picture = view.picture();
    if (!view.band() && covered.rows() <= exactSide && covered.cols() <= exactSide) {
        m_source = Source::Weights;
        m_region = covered;
    } else if (!picture.empty() && picture.layer == view.layer() && picture.head == view.head() &&
               picture.band == view.band()) {
        m_source = Source::Picture;
        m_region = picture.region;
        m_binSize = picture.binSize;
    } else if (!view.band()) {
        const TiledAttention &tiles = *view.run()->tiles;
        m_source = Source::Grid;
        m_region = {0, tiles.tokens(), 0, tiles.tokens()};
        m_binSize = tiles.binSize;
    } else {
        m_problem = tr("The band is still being computed: save it once it is drawn.");
    }
}

QString RegionExport::fileName() const
{
    const bool band = m_view.band();
    QString name = QStringLiteral("layer%1_head%2_%3q%4-%5_%6%7-%8")
                       .arg(m_view.layer())
                       .arg(m_view.head())
                       .arg(band ? QStringLiteral("band_") : QString())
                       .arg(m_region.q0)
                       .arg(m_region.q1)
                       .arg(band ? QStringLiteral("d") : QStringLiteral("k"))
                       .arg(m_region.k0)
                       .arg(m_region.k1);
    if (m_binSize > 1)
        name += QStringLiteral("_%1%2")
                    .arg(m_pooling == HeadTiles::Pooling::Max ? QStringLiteral("max")
                                                              : QStringLiteral("mean"))
                    .arg(m_binSize);
    return name + QStringLiteral(".npy");
}

QString RegionExport::write(const QString &path) const
{
    if (!m_problem.isEmpty())
        return m_problem;
    const auto tensorOf = [](const auto &values) {
        Tensor tensor(Shape{{"row", values.rows()}, {"col", values.cols()}});
        RowMatrixMap(tensor.data(), values.rows(), values.cols()) = values;
        return tensor;
    };
    Tensor values;
    if (m_source == Source::Weights)
        values = tensorOf(m_view.regionWeights(m_region));
    else if (m_source == Source::Picture)
        values = tensorOf(m_view.picture().values(m_pooling));
    else
        values = tensorOf(m_view.run()->tiles->pooled(m_view.layer(), m_view.head(), m_pooling));
    try {
        NpyFile::write(path.toStdString(), values);
    } catch (const InputError &error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

} // namespace headlens
