// isValidUtf8: whether bytes meant for a person's terminal or window are valid UTF-8.
#pragma once

#include <QByteArray>
#include <QStringDecoder>

namespace headlens::test {

/// True when `bytes` decode as UTF-8 without error and encode back to the same bytes (Qt's
/// decoder reports invalid sequences; the round trip also catches overlong forms).
inline bool isValidUtf8(const QByteArray &bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringConverter::Flag::Stateless);
    const QString text = decoder.decode(bytes);
    return !decoder.hasError() && text.toUtf8() == bytes;
}

} // namespace headlens::test
