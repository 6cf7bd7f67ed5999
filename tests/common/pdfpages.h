// pdfpages.h: reads back what a PDF written by QPdfWriter holds: its pages' sizes and its text.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QSize>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QtEndian>

namespace headlens::test {

/// Just enough of PDF for the files QPdfWriter writes (one font per /F<object> resource, each
/// glyph shown as `dx dy Td <gggg> Tj` inside BT ... ET, a /ToUnicode CMap per font, streams
/// optionally /FlateDecode). Not a general PDF reader.
class PdfPages
{
public:
    explicit PdfPages(const QByteArray &pdf)
    {
        static const QRegularExpression object(R"((\d+)\s+0\s+obj\b(.*?)\bendobj)",
                                               QRegularExpression::DotMatchesEverythingOption);
        // Latin-1 keeps every byte of the binary streams as one character.
        for (auto it = object.globalMatch(QString::fromLatin1(pdf)); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            m_objects.insert(m.captured(1).toInt(), m.captured(2).toLatin1());
        }
    }

    /// Each page's /MediaBox as width x height, in points.
    QList<QSizeF> pageSizes() const
    {
        static const QRegularExpression box(R"(/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+)"
                                            R"(([-\d.]+)\s+([-\d.]+)\s*\])");
        QList<QSizeF> sizes;
        for (const QByteArray &body : m_objects) {
            if (!body.contains("/Type /Page") || body.contains("/Type /Pages"))
                continue;
            const QRegularExpressionMatch m = box.match(QString::fromLatin1(body));
            if (m.hasMatch())
                sizes << QSizeF(m.captured(3).toDouble() - m.captured(1).toDouble(),
                                m.captured(4).toDouble() - m.captured(2).toDouble());
        }
        return sizes;
    }

    /// The text of every BT ... ET block of every content stream, decoded through its font's
    /// ToUnicode map, white space folded to single spaces; a glyph without a mapping reads as
    /// U+FFFD.
    QStringList texts() const
    {
        QStringList result;
        for (const QByteArray &body : m_objects)
            result << textsOf(streamOf(body));
        return result;
    }

    /// The texts of each page (as texts() reads them), in the order of the /Pages tree's /Kids.
    QList<QStringList> pageTexts() const
    {
        static const QRegularExpression kid(R"((\d+)\s+0\s+R)");
        QList<QStringList> pages;
        for (const QByteArray &body : m_objects) {
            if (!body.contains("/Type /Pages"))
                continue;
            const qsizetype kids = body.indexOf("/Kids");
            const QString list =
                QString::fromLatin1(body.mid(kids, body.indexOf(']', kids) - kids));
            for (auto k = kid.globalMatch(list); k.hasNext();) {
                const QByteArray page = m_objects.value(k.next().captured(1).toInt());
                pages << textsOf(streamOf(m_objects.value(reference(page, "/Contents"))));
            }
        }
        return pages;
    }

    /// The pixel size of every bitmap (/Subtype /Image) in the file; none when all is vectors.
    QList<QSize> imageSizes() const
    {
        static const QRegularExpression width(R"(/Width\s+(\d+))"), height(R"(/Height\s+(\d+))");
        QList<QSize> sizes;
        for (const QByteArray &body : m_objects) {
            if (!body.contains("/Subtype /Image"))
                continue;
            const QString text = QString::fromLatin1(body.left(body.indexOf("stream")));
            sizes << QSize(width.match(text).captured(1).toInt(),
                           height.match(text).captured(1).toInt());
        }
        return sizes;
    }

    /// The names of the fonts (/FontDescriptor objects) that carry no embedded font file.
    QStringList fontsNotEmbedded() const
    {
        static const QRegularExpression name(R"(/FontName\s*/(\S+))");
        QStringList missing;
        for (const QByteArray &body : m_objects)
            if (body.contains("/Type /FontDescriptor") && !body.contains("/FontFile"))
                missing << name.match(QString::fromLatin1(body)).captured(1);
        return missing;
    }

    /// How many fonts the file describes.
    int fontCount() const
    {
        int count = 0;
        for (const QByteArray &body : m_objects)
            count += body.contains("/Type /FontDescriptor") ? 1 : 0;
        return count;
    }

private:
    QStringList textsOf(const QByteArray &content) const
    {
        static const QRegularExpression block(R"(BT\b(.*?)\bET\b)",
                                              QRegularExpression::DotMatchesEverythingOption);
        static const QRegularExpression token(R"(/F(\d+)\s+[-\d.]+\s+Tf|<([0-9A-Fa-f]+)>\s*Tj)");
        QStringList result;
        {
            if (content.isEmpty() || !content.contains("BT"))
                return result;
            for (auto b = block.globalMatch(QString::fromLatin1(content)); b.hasNext();) {
                QString text;
                QHash<uint, QString> map;
                for (auto t = token.globalMatch(b.next().captured(1)); t.hasNext();) {
                    const QRegularExpressionMatch m = t.next();
                    if (!m.captured(1).isEmpty()) {
                        map = toUnicodeOfFont(m.captured(1).toInt());
                        continue;
                    }
                    const QString hex = m.captured(2);
                    for (int i = 0; i + 4 <= hex.size(); i += 4)
                        text += map.value(hex.mid(i, 4).toUInt(nullptr, 16), QChar(0xFFFD));
                }
                if (!text.simplified().isEmpty())
                    result << text.simplified(); // Qt maps the space glyph to a tab
            }
        }
        return result;
    }

    /// The data of the stream in an object's body, inflated when /FlateDecode; empty if none.
    static QByteArray streamOf(const QByteArray &body)
    {
        const qsizetype start = body.indexOf("stream");
        const qsizetype end = body.lastIndexOf("endstream");
        if (start < 0 || end <= start)
            return {};
        qsizetype from = start + 6;
        if (body.mid(from, 2) == "\r\n")
            from += 2;
        else if (body.at(from) == '\n')
            from += 1;
        QByteArray data = body.mid(from, end - from);
        if (!body.left(start).contains("/FlateDecode"))
            return data;
        // qUncompress wants the size first; it grows its buffer when the guess is short.
        QByteArray sized(4, '\0');
        qToBigEndian<quint32>(quint32(data.size() * 8 + 1024), sized.data());
        return qUncompress(sized + data);
    }

    static int reference(const QByteArray &body, const char *key)
    {
        const QRegularExpression ref(QString::fromLatin1(key) + R"(\s+(\d+)\s+0\s+R)");
        const QRegularExpressionMatch m = ref.match(QString::fromLatin1(body));
        return m.hasMatch() ? m.captured(1).toInt() : -1;
    }

    /// Glyph id -> text of the font object `font` (Qt names it /F<object number>).
    QHash<uint, QString> toUnicodeOfFont(int font) const
    {
        QHash<uint, QString> map;
        const QByteArray cmap =
            streamOf(m_objects.value(reference(m_objects.value(font), "/ToUnicode")));
        static const QRegularExpression section(R"(begin(bfchar|bfrange)(.*?)end\1)",
                                                QRegularExpression::DotMatchesEverythingOption);
        static const QRegularExpression hexes(R"(<([0-9A-Fa-f]+)>|\[|\])");
        for (auto s = section.globalMatch(QString::fromLatin1(cmap)); s.hasNext();) {
            const QRegularExpressionMatch m = s.next();
            QStringList items; // hex strings, with "[" and "]" kept for bfrange arrays
            for (auto h = hexes.globalMatch(m.captured(2)); h.hasNext();) {
                const QRegularExpressionMatch hm = h.next();
                items << (hm.captured(1).isEmpty() ? hm.captured(0) : hm.captured(1));
            }
            if (m.captured(1) == "bfchar") {
                for (int i = 0; i + 1 < items.size(); i += 2)
                    map.insert(items[i].toUInt(nullptr, 16), utf16(items[i + 1]));
                continue;
            }
            for (int i = 0; i + 2 < items.size();) {
                const uint lo = items[i].toUInt(nullptr, 16), hi = items[i + 1].toUInt(nullptr, 16);
                if (items[i + 2] == "[") {
                    int k = i + 3;
                    for (uint g = lo; g <= hi && k < items.size() && items[k] != "]"; ++g, ++k)
                        map.insert(g, utf16(items[k]));
                    i = k + 1;
                } else {
                    const uint first = items[i + 2].toUInt(nullptr, 16);
                    for (uint g = lo; g <= hi; ++g)
                        map.insert(g, QString(QChar(char16_t(first + (g - lo)))));
                    i += 3;
                }
            }
        }
        return map;
    }

    static QString utf16(const QString &hex)
    {
        QString text;
        for (int i = 0; i + 4 <= hex.size(); i += 4)
            text += QChar(char16_t(hex.mid(i, 4).toUInt(nullptr, 16)));
        return text;
    }

    QHash<int, QByteArray> m_objects; ///< object number -> what lies between obj and endobj
};

} // namespace headlens::test
