// NpyFile: strict parsing of the .npy header dict and conversion of the supported dtypes.
#include "io/npyfile.h"

#include "io/atomicfile.h"
#include "io/wholefile.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <cassert>
#include <cctype>
#include <cstring>
#include <limits>

namespace headlens {

namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLength = 6;
// numpy.load refuses longer headers too (max_header_size); a real header is ~128 bytes.
constexpr size_t kMaxHeaderBytes = 10000;
// NumPy's own limit on the number of dimensions (NPY_MAXDIMS).
constexpr size_t kMaxRank = 32;

struct DType
{
    const char *descr;
    int64_t itemSize;
    float (*load)(const unsigned char *p);
};

// Little-endian loads built from bytes, so the format does not depend on the host's byte order.
uint64_t loadLittle(const unsigned char *p, int bytes)
{
    uint64_t value = 0;
    for (int i = bytes - 1; i >= 0; --i)
        value = (value << 8) | p[i];
    return value;
}

template <typename Real, typename Bits> float loadReal(const unsigned char *p)
{
    const auto bits = static_cast<Bits>(loadLittle(p, sizeof(Bits)));
    Real value;
    std::memcpy(&value, &bits, sizeof value);
    return static_cast<float>(value);
}

template <typename Int> float loadInt(const unsigned char *p)
{
    return static_cast<float>(static_cast<Int>(loadLittle(p, sizeof(Int))));
}

const DType kDTypes[] = {
    {"<f4", 4, loadReal<float, uint32_t>},
    {"<f8", 8, loadReal<double, uint64_t>},
    {"<i8", 8, loadInt<int64_t>},
    {"<i4", 4, loadInt<int32_t>},
    {"|b1", 1, [](const unsigned char *p) { return *p != 0 ? 1.0f : 0.0f; }},
    {"|u1", 1, [](const unsigned char *p) { return static_cast<float>(*p); }},
};

struct Header
{
    std::string descr;
    bool fortranOrder = false;
    std::vector<int64_t> shape;
};

// A strict reader for the one Python literal a .npy header holds:
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser
{
public:
    HeaderParser(const std::string &text, const std::string &source)
        : m_text(text), m_source(source)
    {}

    Header parse()
    {
        Header header;
        bool seenDescr = false, seenOrder = false, seenShape = false;
        expect('{');
        while (!peek('}')) {
            const std::string key = parseString();
            expect(':');
            if (key == "descr" && !seenDescr) {
                if (peek('['))
                    fail("structured arrays (a list as 'descr') are not supported");
                header.descr = parseString();
                seenDescr = true;
            } else if (key == "fortran_order" && !seenOrder) {
                header.fortranOrder = parseBool();
                seenOrder = true;
            } else if (key == "shape" && !seenShape) {
                header.shape = parseShape();
                seenShape = true;
            } else {
                fail("unexpected or repeated key '" + quotedText(key) + "'");
            }
            if (!peek('}'))
                expect(',');
        }
        expect('}');
        skipSpace();
        if (m_pos != m_text.size())
            fail("text after the closing '}'");
        if (!seenDescr || !seenOrder || !seenShape)
            fail("it needs the keys 'descr', 'fortran_order' and 'shape'");
        return header;
    }

private:
    [[noreturn]] void fail(const std::string &what) const
    {
        throw InputError(m_source + ": invalid .npy header: " + what +
                         ". The file is damaged or was not written by numpy.save.");
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }

    bool peek(char c)
    {
        skipSpace();
        return m_pos < m_text.size() && m_text[m_pos] == c;
    }

    void expect(char c)
    {
        if (!peek(c))
            fail(std::string("expected '") + c + "' at byte " + std::to_string(m_pos));
        ++m_pos;
    }

    std::string parseString()
    {
        skipSpace();
        const char quote = m_pos < m_text.size() ? m_text[m_pos] : '\0';
        if (quote != '\'' && quote != '"')
            fail("expected a quoted string at byte " + std::to_string(m_pos));
        const size_t end = m_text.find(quote, m_pos + 1);
        if (end == std::string::npos)
            fail("unterminated string");
        std::string value = m_text.substr(m_pos + 1, end - m_pos - 1);
        if (value.find('\\') != std::string::npos)
            fail("escapes in strings are not supported");
        m_pos = end + 1;
        return value;
    }

    bool parseBool()
    {
        skipSpace();
        const bool value = m_text.compare(m_pos, 4, "True") == 0;
        if (!value && m_text.compare(m_pos, 5, "False") != 0)
            fail("'fortran_order' must be True or False");
        m_pos += value ? 4 : 5;
        return value;
    }

    int64_t parseDimension()
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '-')
            fail("negative dimension in 'shape'");
        const size_t start = m_pos;
        int64_t value = 0;
        while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
            const int digit = m_text[m_pos++] - '0';
            if (value > (std::numeric_limits<int64_t>::max() - digit) / 10)
                fail("a dimension in 'shape' is too large");
            value = value * 10 + digit;
        }
        if (m_pos == start)
            fail("'shape' must be a tuple of non-negative integers");
        if (m_pos < m_text.size() && m_text[m_pos] == 'L') // Python 2 long, as numpy accepts
            ++m_pos;
        return value;
    }

    std::vector<int64_t> parseShape()
    {
        std::vector<int64_t> shape;
        expect('(');
        bool trailingComma = false;
        while (!peek(')')) {
            if (shape.size() == kMaxRank)
                fail("more than " + std::to_string(kMaxRank) + " dimensions");
            shape.push_back(parseDimension());
            trailingComma = peek(',');
            if (trailingComma)
                ++m_pos;
            else if (!peek(')'))
                fail("expected ',' or ')' in 'shape'");
        }
        expect(')');
        if (shape.size() == 1 && !trailingComma) // "(3)" is the integer 3 in Python
            fail("'shape' must be a tuple, e.g. (3,)");
        return shape;
    }

    const std::string &m_text;
    const std::string &m_source;
    size_t m_pos = 0;
};

const DType &findDType(const std::string &descr, const std::string &source)
{
    for (const DType &type : kDTypes) {
        if (descr == type.descr)
            return type;
    }
    throw InputError(source + ": unsupported data type '" + quotedText(descr) +
                     "'. HeadLens reads little-endian float32 '<f4', float64 '<f8', int64 '<i8', "
                     "int32 '<i4', bool '|b1' and uint8 '|u1'; convert with "
                     "numpy.save(path, array.astype('<f4')).");
}

std::string shapeText(const std::vector<int64_t> &shape)
{
    std::string text = "(";
    for (size_t i = 0; i < shape.size(); ++i)
        text += (i > 0 ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

// Element count of `shape`, refusing products that overflow int64 even when a dimension is 0
// (Shape::numel multiplies left to right).
int64_t elementCount(const Header &header, const DType &type, const std::string &source)
{
    int64_t nonZero = 1;
    bool hasZero = false;
    for (int64_t size : header.shape) {
        if (size == 0) {
            hasZero = true;
            continue;
        }
        if (nonZero > std::numeric_limits<int64_t>::max() / type.itemSize / size)
            throw InputError(source + ": the shape " + shapeText(header.shape) +
                             " is too large to exist. The file is damaged.");
        nonZero *= size;
    }
    return hasZero ? 0 : nonZero;
}

// Reads the fixed prefix (magic, version, header length) and returns the header text.
std::string readHeaderText(const std::string &bytes, const std::string &source, size_t *dataStart)
{
    if (bytes.size() < kMagicLength || bytes.compare(0, kMagicLength, kMagic) != 0) {
        const bool zip = bytes.compare(0, 2, "PK") == 0;
        throw InputError(source + ": not a .npy file (it does not start with \\x93NUMPY)." +
                         (zip ? " It looks like a zip archive; open it as .npz." : ""));
    }
    const int major = bytes.size() > 6 ? static_cast<unsigned char>(bytes[6]) : 1;
    const int minor = bytes.size() > 7 ? static_cast<unsigned char>(bytes[7]) : 0;
    if (major < 1 || major > 3 || minor != 0)
        throw InputError(source + ": unsupported .npy format version " + std::to_string(major) +
                         "." + std::to_string(minor) + " (HeadLens reads 1.0, 2.0 and 3.0).");
    const size_t lengthBytes = major == 1 ? 2 : 4;
    const size_t prefix = kMagicLength + 2 + lengthBytes;
    if (bytes.size() < prefix)
        throw InputError(source + ": the .npy file is truncated inside its header.");
    const auto *raw = reinterpret_cast<const unsigned char *>(bytes.data());
    const uint64_t headerLength = loadLittle(raw + 8, static_cast<int>(lengthBytes));
    if (headerLength > kMaxHeaderBytes)
        throw InputError(source + ": the .npy header claims " + std::to_string(headerLength) +
                         " bytes, more than the " + std::to_string(kMaxHeaderBytes) +
                         " numpy accepts. The file is damaged.");
    if (bytes.size() - prefix < headerLength)
        throw InputError(source + ": the .npy file is truncated: the header needs " +
                         std::to_string(headerLength) + " bytes but only " +
                         std::to_string(bytes.size() - prefix) + " follow.");
    *dataStart = prefix + static_cast<size_t>(headerLength);
    return bytes.substr(prefix, static_cast<size_t>(headerLength));
}

// The magic, version 1.0, header length and header of an array of `descr` in C order, the
// header padded with spaces and ended with '\n' so the data starts 64-byte aligned, as
// numpy.save does. At most 32 dimensions keep it far below v1.0's 65535-byte limit.
std::string headerBytes(const char *descr, const std::vector<int64_t> &shape)
{
    assert(shape.size() <= kMaxRank);
    std::string header = std::string("{'descr': '") + descr +
                         "', 'fortran_order': False, 'shape': " + shapeText(shape) + ", }";
    header.append(63 - (10 + header.size()) % 64, ' ');
    header += '\n';
    return std::string(kMagic, kMagicLength) + '\x01' + '\x00' +
           static_cast<char>(header.size() & 0xff) + static_cast<char>(header.size() >> 8) + header;
}

} // namespace

Tensor NpyFile::parse(const std::string &bytes, const std::string &sourceName)
{
    size_t dataStart = 0;
    const std::string text = readHeaderText(bytes, sourceName, &dataStart);
    const Header header = HeaderParser(text, sourceName).parse();
    if (header.fortranOrder)
        throw InputError(sourceName + ": the array is stored in Fortran order "
                                      "(fortran_order: True). Save it in C order with "
                                      "numpy.save(path, numpy.ascontiguousarray(array)).");
    const DType &type = findDType(header.descr, sourceName);
    const int64_t count = elementCount(header, type, sourceName);
    const uint64_t needed = static_cast<uint64_t>(count) * static_cast<uint64_t>(type.itemSize);
    const uint64_t present = bytes.size() - dataStart;
    if (needed != present)
        throw InputError(sourceName + ": the header promises shape " + shapeText(header.shape) +
                         " of '" + header.descr + "' (" + std::to_string(needed) +
                         " bytes) but the file holds " + std::to_string(present) +
                         " bytes of data. The file is " +
                         (needed > present ? "truncated." : "damaged."));

    std::vector<Axis> axes;
    for (size_t i = 0; i < header.shape.size(); ++i)
        axes.push_back({"d" + std::to_string(i), header.shape[i]});
    std::vector<float> values(static_cast<size_t>(count));
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.data()) + dataStart;
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = type.load(data + i * static_cast<size_t>(type.itemSize));
    return Tensor(Shape(std::move(axes)), std::move(values));
}

Tensor NpyFile::read(const std::string &path)
{
    return parse(WholeFile::read(path, kMaxFileBytes, ".npy"), path);
}

std::string NpyFile::serialize(const Tensor &tensor)
{
    assert(!tensor.isEmpty());
    std::string bytes = headerBytes("<f4", tensor.shape().sizes());
    const size_t start = bytes.size();
    bytes.resize(start + 4 * static_cast<size_t>(tensor.numel()));
    for (size_t i = 0; i < static_cast<size_t>(tensor.numel()); ++i) {
        uint32_t bits;
        std::memcpy(&bits, tensor.data() + i, sizeof bits);
        for (size_t k = 0; k < 4; ++k)
            bytes[start + 4 * i + k] = static_cast<char>((bits >> (8 * k)) & 0xff);
    }
    return bytes;
}

std::string NpyFile::serializeInt64(const std::vector<int64_t> &values,
                                    const std::vector<int64_t> &shape)
{
    std::string bytes = headerBytes("<i8", shape);
    const size_t start = bytes.size();
    bytes.resize(start + 8 * values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        const auto bits = static_cast<uint64_t>(values[i]);
        for (size_t k = 0; k < 8; ++k)
            bytes[start + 8 * i + k] = static_cast<char>((bits >> (8 * k)) & 0xff);
    }
    return bytes;
}

void NpyFile::write(const std::string &path, const Tensor &tensor)
{
    AtomicFile::write(path, serialize(tensor));
}

void NpyFile::writeInt64(const std::string &path, const std::vector<int64_t> &values,
                         const std::vector<int64_t> &shape)
{
    AtomicFile::write(path, serializeInt64(values, shape));
}

} // namespace headlens
