// NpzArchive: .npz members through libzip, with size checks before anything is unpacked.
#include "io/npzarchive.h"

#include "io/atomicfile.h"
#include "io/npyfile.h"
#include "io/wholefile.h"
#include "util/bytesize.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <zip.h>

#include <algorithm>
#include <memory>
#include <set>

namespace headlens {

namespace {

struct ArchiveCloser
{
    void operator()(zip_t *archive) const { zip_discard(archive); }
};
struct MemberCloser
{
    void operator()(zip_file_t *file) const { zip_fclose(file); }
};
struct SourceFreer
{
    void operator()(zip_source_t *source) const { zip_source_free(source); }
};
using ArchivePtr = std::unique_ptr<zip_t, ArchiveCloser>;
using MemberPtr = std::unique_ptr<zip_file_t, MemberCloser>;
using SourcePtr = std::unique_ptr<zip_source_t, SourceFreer>;

constexpr char kSuffix[] = ".npy";
constexpr size_t kSuffixLength = 4;
// Deflate cannot expand data more than about 1032:1; a larger claimed ratio is a lie.
constexpr uint64_t kMaxDeflateRatio = 1032;
constexpr zip_uint64_t kChunkBytes = 1 << 20;
// A fixed timestamp makes the same tensors give the same file bytes.
constexpr time_t kMemberTime = 946684800; // 2000-01-01

std::string zipErrorText(int code)
{
    if (code == ZIP_ER_EXISTS) // libzip's "File already exists" would mislead here
        return "two members have the same name";
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    std::string text = zip_error_strerror(&error);
    zip_error_fini(&error);
    return text;
}

// The member's declared sizes, checked against each other before anything is unpacked.
void checkDeclaredSize(const zip_stat_t &stat, uint64_t archiveBytes, const std::string &where)
{
    if (stat.comp_size > archiveBytes)
        throw InputError(where + ": the member claims " + std::to_string(stat.comp_size) +
                         " stored bytes, more than the whole archive's " +
                         std::to_string(archiveBytes) + ". The archive is truncated or damaged.");
    if (stat.size > NpzArchive::kMaxMemberBytes)
        throw InputError(where + ": the member unpacks to " + std::to_string(stat.size) +
                         " bytes, more than the 4 GiB HeadLens accepts.");
    const bool lies = (stat.comp_method == ZIP_CM_STORE && stat.size != stat.comp_size) ||
                      (stat.comp_method == ZIP_CM_DEFLATE &&
                       stat.size > stat.comp_size * kMaxDeflateRatio + 1024);
    if (lies)
        throw InputError(where + ": the declared size (" + std::to_string(stat.size) +
                         " bytes) disagrees with the " + std::to_string(stat.comp_size) +
                         " bytes stored. The archive is damaged or malicious.");
    if (stat.encryption_method != ZIP_EM_NONE)
        throw InputError(where + ": the member is encrypted; save the arrays without a password.");
}

// Unpacks a member, growing the buffer as data arrives so a false size cannot make us
// allocate memory the archive does not hold.
std::string unpack(zip_t *archive, const zip_stat_t &stat, const std::string &where)
{
    MemberPtr file(zip_fopen_index(archive, stat.index, 0));
    if (!file)
        throw InputError(where + ": cannot unpack: " + zip_strerror(archive));
    std::string bytes;
    bytes.reserve(static_cast<size_t>(std::min<zip_uint64_t>(stat.size, 64 * kChunkBytes)));
    for (;;) {
        // A chunk, or what the member declares is left and one byte more (to catch a member
        // holding more than it declares): a small member costs no 1 MiB buffer, which under
        // the address sanitizer's fresh pages made reading the tests' goldens 100 times slower.
        const size_t done = bytes.size();
        const zip_uint64_t want =
            std::min<zip_uint64_t>(kChunkBytes, (stat.size > done ? stat.size - done : 0) + 1);
        bytes.resize(done + want);
        const zip_int64_t got = zip_fread(file.get(), &bytes[done], want);
        if (got < 0)
            throw InputError(where + ": cannot unpack: " + zip_file_strerror(file.get()) +
                             ". The archive is damaged.");
        bytes.resize(done + static_cast<size_t>(got));
        if (got == 0 || bytes.size() > stat.size)
            break;
    }
    if (bytes.size() != stat.size) {
        const std::string held =
            bytes.size() > stat.size ? "more" : "only " + std::to_string(bytes.size());
        throw InputError(where + ": the member declares " + std::to_string(stat.size) +
                         " bytes but holds " + held + ". The archive is damaged.");
    }
    return bytes;
}

// Every member's stat, all checked before any is unpacked: the count, the names and the sizes
// each declares, against each other, the caps and the `archiveBytes` that hold them.
std::vector<zip_stat_t> declaredMembers(zip_t *archive, uint64_t archiveBytes,
                                        const std::string &source)
{
    const zip_int64_t count = zip_get_num_entries(archive, 0);
    if (count < 0 || static_cast<uint64_t>(count) > NpzArchive::kMaxMembers)
        throw InputError(source + " declares " + std::to_string(count) +
                         " members, more than the " + std::to_string(NpzArchive::kMaxMembers) +
                         " HeadLens accepts. The archive is damaged.");
    std::vector<zip_stat_t> members;
    uint64_t total = 0;
    for (zip_int64_t i = 0; i < count; ++i) {
        zip_stat_t stat;
        if (zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &stat) != 0)
            throw InputError(source + ": cannot read member " + std::to_string(i) + ": " +
                             zip_strerror(archive));
        const std::string member = stat.name;
        const std::string where = source + ", member " + quotedText(member);
        const bool isNpy =
            member.size() > kSuffixLength &&
            member.compare(member.size() - kSuffixLength, kSuffixLength, kSuffix) == 0;
        if (!isNpy)
            throw InputError(where + ": not a .npy array. A .npz file holds only <name>.npy "
                                     "members, as numpy.savez writes them.");
        checkDeclaredSize(stat, archiveBytes, where);
        total += stat.size; // each is at most 4 GiB: no overflow below 2^32 members
        if (total > NpzArchive::kMaxMemberBytes)
            throw InputError(source + ": the members unpack to more than the " +
                             formatBytes(double(NpzArchive::kMaxMemberBytes), 0) +
                             " HeadLens accepts in all.");
        members.push_back(stat);
    }
    return members;
}

} // namespace

std::vector<std::pair<std::string, Tensor>> NpzArchive::read(const std::string &path)
{
    return parse(WholeFile::read(path, kMaxArchiveBytes, ".npz"), path);
}

std::vector<std::pair<std::string, Tensor>> NpzArchive::parse(const std::string &bytes,
                                                              const std::string &sourceName)
{
    zip_error_t error;
    zip_error_init(&error);
    SourcePtr source(zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error));
    zip_t *opened =
        source ? zip_open_from_source(source.get(), ZIP_RDONLY | ZIP_CHECKCONS, &error) : nullptr;
    const int code = zip_error_code_zip(&error);
    zip_error_fini(&error);
    if (!opened)
        throw InputError("Cannot open " + sourceName + " as .npz: " + zipErrorText(code) +
                         ". Save the arrays with numpy.savez.");
    zip_source_keep(source.get()); // the archive shares the source now; both release it
    ArchivePtr archive(opened);
    const std::vector<zip_stat_t> members =
        declaredMembers(archive.get(), bytes.size(), sourceName);
    std::vector<std::pair<std::string, Tensor>> result;
    for (const zip_stat_t &stat : members) {
        const std::string member = stat.name;
        const std::string where = sourceName + ", member " + quotedText(member);
        const std::string unpacked = unpack(archive.get(), stat, where);
        result.emplace_back(member.substr(0, member.size() - kSuffixLength),
                            NpyFile::parse(unpacked, where));
    }
    return result;
}

namespace {

// Adds one member; `bytes` must stay alive until the archive is closed.
void addMember(zip_t *archive, const std::string &name, const std::string &bytes, bool compressed,
               const std::string &path)
{
    zip_source_t *source = zip_source_buffer(archive, bytes.data(), bytes.size(), 0);
    const zip_int64_t index =
        source ? zip_file_add(archive, (name + kSuffix).c_str(), source, ZIP_FL_ENC_UTF_8) : -1;
    if (index < 0) {
        if (source)
            zip_source_free(source);
        throw InputError("Cannot write " + path + ": member " + name + ": " +
                         zip_strerror(archive));
    }
    const auto at = static_cast<zip_uint64_t>(index);
    zip_set_file_compression(archive, at, compressed ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
    zip_file_set_mtime(archive, at, kMemberTime, 0);
}

// The bytes libzip wrote into an in-memory source.
std::string contentsOf(zip_source_t *buffer, const std::string &path)
{
    std::string bytes;
    if (zip_source_open(buffer) != 0)
        throw InputError("Cannot write " + path + ": " +
                         zip_error_strerror(zip_source_error(buffer)));
    zip_source_seek(buffer, 0, SEEK_END);
    bytes.resize(static_cast<size_t>(std::max<zip_int64_t>(zip_source_tell(buffer), 0)));
    zip_source_seek(buffer, 0, SEEK_SET);
    const zip_int64_t got = zip_source_read(buffer, bytes.data(), bytes.size());
    zip_source_close(buffer);
    if (got != static_cast<zip_int64_t>(bytes.size()))
        throw InputError("Cannot write " + path + ": the archive could not be assembled.");
    return bytes;
}

} // namespace

void NpzArchive::write(const std::string &path,
                       const std::vector<std::pair<std::string, Tensor>> &entries, bool compressed)
{
    AtomicFile::write(path, serialize(entries, compressed, path));
}

std::string NpzArchive::serialize(const std::vector<std::pair<std::string, Tensor>> &entries,
                                  bool compressed, const std::string &path)
{
    if (entries.empty()) // libzip writes nothing for an empty archive; numpy the end record
        return std::string("PK\x05\x06", 4) + std::string(18, '\0');
    std::vector<std::string> payloads;
    std::set<std::string> names;
    for (const auto &[name, tensor] : entries) {
        if (!names.insert(name).second)
            throw InputError("Cannot write " + path + ": two arrays are named " + name + ".");
        payloads.push_back(NpyFile::serialize(tensor));
    }

    zip_error_t error;
    zip_error_init(&error);
    SourcePtr buffer(zip_source_buffer_create(nullptr, 0, 0, &error));
    zip_t *archive = buffer ? zip_open_from_source(buffer.get(), ZIP_TRUNCATE, &error) : nullptr;
    if (!archive) {
        const std::string reason = zip_error_strerror(&error);
        zip_error_fini(&error);
        throw InputError("Cannot write " + path + ": " + reason);
    }
    zip_error_fini(&error);
    zip_source_keep(buffer.get()); // the archive releases it on close; we read it afterwards
    try {
        for (size_t i = 0; i < entries.size(); ++i)
            addMember(archive, entries[i].first, payloads[i], compressed, path);
    } catch (...) {
        zip_discard(archive);
        throw;
    }
    if (zip_close(archive) != 0) {
        const std::string reason = zip_strerror(archive);
        zip_discard(archive);
        throw InputError("Cannot write " + path + ": " + reason);
    }
    return contentsOf(buffer.get(), path);
}

} // namespace headlens
