// TokenNumber: the one place a 0-based token index becomes the 1-based number people read.
#include "views/tokennumber.h"

#include <QObject>

namespace headlens {

QString TokenNumber::entry(int64_t index, const QString &label)
{
    return QString("%1 “%2”").arg(index + 1).arg(label);
}

QString TokenNumber::named(int64_t index, const QString &label)
{
    return QObject::tr("token %1").arg(entry(index, label));
}

} // namespace headlens
