// RegionExport: exact weights for a small square region, the cells drawn otherwise.
#include "longtext/regionexport.h"

#include "io/npyfile.h"
#include "longtext/tiledheadview.h"
#include "model/tiledattention.h"
#include "util/inputerror.h"

namespace headlens {

RegionExport::RegionExport(const TiledHeadView &view, HeadTiles::Pooling pooling, int64_t exactSide)
    : m_run(view.run()), m_layer(view.layer()), m_head(view.head()), m_band(view.band()),
      m_pooling(pooling)
{
    if (!m_run || !m_run->tiled() || m_head < 0) {
        m_problem = tr("There is no long text to save from.");
        return;
    }
    const TileRegion covered = view.viewport().covered();
    const TilePicture &picture = view.picture();
    if (!m_band && covered.rows() <= exactSide && covered.cols() <= exactSide) {
        m_region = covered;
    } else if (!picture.empty() && picture.isOf(m_layer, m_head, m_band)) {
        m_region = picture.region;
        m_binSize = picture.binSize;
        m_cells = picture.values(pooling);
    } else if (!m_band) {
        const TiledAttention &tiles = *m_run->tiles;
        m_region = {0, tiles.tokens(), 0, tiles.tokens()};
        m_binSize = tiles.binSize;
        m_cells = tiles.pooled(m_layer, m_head, pooling);
    } else {
        m_problem = tr("The band is still being computed: save it once it is drawn.");
    }
}

QString RegionExport::fileName() const
{
    QString name = QStringLiteral("layer%1_head%2_%3q%4-%5_%6%7-%8")
                       .arg(m_layer)
                       .arg(m_head)
                       .arg(m_band ? QStringLiteral("band_") : QString())
                       .arg(m_region.q0)
                       .arg(m_region.q1)
                       .arg(m_band ? QStringLiteral("d") : QStringLiteral("k"))
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
    const RowMatrix values = m_cells.size() > 0
                                 ? m_cells
                                 : m_run->tiles->head(m_layer, m_head)
                                       .region(m_region.q0, m_region.q1, m_region.k0, m_region.k1);
    Tensor tensor(Shape{{"row", values.rows()}, {"col", values.cols()}});
    RowMatrixMap(tensor.data(), values.rows(), values.cols()) = values;
    try {
        NpyFile::write(path.toStdString(), tensor);
    } catch (const InputError &error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

} // namespace headlens
