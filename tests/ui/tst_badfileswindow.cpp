// tst_badfileswindow: damaged files through every way the window opens files, and what it says.
#include "commandline.h"
#include "io/npyfile.h"
#include "io/npzarchive.h"
#include "models/modelgridview.h"
#include "models/modeloverview.h"
#include "panels/controlspanel.h"
#include "panels/problembanner.h"
#include "plot/heatmapplot.h"
#include "startupoptions.h"
#include "testmain.h"
#include "train/toymodelfile.h"
#include "train/trainer.h"
#include "views/headsgridview.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"
#include "workspace/workspacefile.h"

#include <QDir>
#include <QDirIterator>
#include <QDropEvent>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMimeData>
#include <QRandomGenerator>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace headlens;
using headlens::test::controlsOf;
using headlens::test::filesOf;
using headlens::test::gridOf;
using headlens::test::keepSettingsIn;
using headlens::test::modelsOf;
using headlens::test::offscreenWindow;
using headlens::test::runnerOf;
using headlens::test::shownTraceOf;
using headlens::test::tabsOf;
using headlens::test::waitUntilIdle;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

namespace {

/// How the damaged file reaches the window.
enum class Way
{
    Weights,     ///< File > Open weights
    Model,       ///< File > Open model folder (and the Model box's button)
    Toy,         ///< File > View a trained toy model
    Workspace,   ///< File > Open workspace
    Drop,        ///< dropped on the window
    CommandLine, ///< `headlens ARGUMENTS`, applied as main() applies them
};

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

void copyFolder(const QString &from, const QString &to)
{
    QVERIFY(QDir().mkpath(to));
    for (const QString &name : QDir(from).entryList(QDir::Files))
        QVERIFY(QFile::copy(from + "/" + name, to + "/" + name));
}

QByteArray randomBytes(int size, quint32 seed)
{
    QRandomGenerator random(seed);
    QByteArray bytes(size, '\0');
    for (char &c : bytes)
        c = char(random.bounded(256));
    return bytes;
}

/// zlib's CRC-32 (the zip members' checksum), bit by bit: small, and not the code under test.
quint32 crc32(const QByteArray &bytes)
{
    quint32 crc = 0xffffffffu;
    for (char c : bytes) {
        crc ^= quint8(c);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

QByteArray littleEndian(quint32 value)
{
    QByteArray bytes(4, '\0');
    for (int k = 0; k < 4; ++k)
        bytes[k] = char((value >> (8 * k)) & 0xff);
    return bytes;
}

/// `archive` (stored, not deflated) with the member whose .npy bytes are `member` replaced by
/// `damaged` of the same length, its checksums fixed: a zip every reader accepts, holding a
/// .npy that is wrong in one way only.
QByteArray replacedMember(QByteArray archive, const QByteArray &member, const QByteArray &damaged)
{
    const qsizetype at = archive.indexOf(member);
    if (at < 0 || damaged.size() != member.size())
        return {};
    archive.replace(at, member.size(), damaged);
    archive.replace(littleEndian(crc32(member)), littleEndian(crc32(damaged)));
    return archive;
}

/// The .npy header's text changed from `from` to `to`, its padding shortened or lengthened so
/// that the header keeps its length (the data stays where the zip says it is).
QByteArray npyHeaderEdited(QByteArray npy, const QByteArray &from, const QByteArray &to)
{
    const qsizetype at = npy.indexOf(from);
    const qsizetype end = npy.indexOf('\n');
    if (at < 0 || end < 0)
        return {};
    npy.replace(at, from.size(), to);
    const qsizetype grown = to.size() - from.size();
    const qsizetype newline = end + grown;
    if (grown > 0)
        npy.remove(newline - grown, grown); // padding spaces before the newline
    else
        npy.insert(newline, QByteArray(-grown, ' '));
    return npy;
}

/// model.safetensors with its JSON header replaced by `header` (the data as it was).
QByteArray withHeader(const QByteArray &file, const QJsonObject &header)
{
    const QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    quint64 old = 0;
    for (int k = 7; k >= 0; --k)
        old = (old << 8) | quint8(file[k]);
    QByteArray out;
    for (int k = 0; k < 8; ++k)
        out.append(char((quint64(json.size()) >> (8 * k)) & 0xff));
    return out + json + file.mid(8 + qsizetype(old));
}

QJsonObject headerOf(const QByteArray &file)
{
    quint64 length = 0;
    for (int k = 7; k >= 0; --k)
        length = (length << 8) | quint8(file[k]);
    return QJsonDocument::fromJson(file.mid(8, qsizetype(length))).object();
}

/// `file` with `values` written over the first floats of tensor `name`.
QByteArray withValues(QByteArray file, const QString &name, const std::vector<float> &values)
{
    quint64 length = 0;
    for (int k = 7; k >= 0; --k)
        length = (length << 8) | quint8(file[k]);
    const qsizetype begin = 8 + qsizetype(length) +
                            headerOf(file)[name].toObject()["data_offsets"].toArray()[0].toInt();
    for (size_t i = 0; i < values.size(); ++i)
        std::memcpy(file.data() + begin + qsizetype(i * sizeof(float)), &values[i], sizeof(float));
    return file;
}

/// Every file under `folder` with its size and modification time: a listing that changes when
/// anything is written, renamed or left behind.
QStringList listing(const QString &folder)
{
    QStringList lines;
    QDirIterator it(folder, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        lines << QString("%1 %2 %3")
                     .arg(info.filePath())
                     .arg(info.isSymLink() || !info.isFile() ? -1 : info.size())
                     .arg(info.lastModified().toMSecsSinceEpoch());
    }
    lines.sort();
    return lines;
}

/// The same picture: the same trace, or (main() computes once more after a refused start-up
/// file) one of the same settings, tokens and weights.
bool samePicture(const std::shared_ptr<const Trace> &before,
                 const std::shared_ptr<const Trace> &after)
{
    if (before == after)
        return true;
    if (!before || !after || !(before->config == after->config))
        return false;
    const Tensor &a = before->tensor(keys::attentionWeights);
    const Tensor &b = after->tensor(keys::attentionWeights);
    return a.shape() == b.shape() &&
           std::equal(a.data(), a.data() + a.numel(), b.data(), b.data() + b.numel());
}

} // namespace

Q_DECLARE_METATYPE(Way)

class TestBadFilesWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settings;
    QTemporaryDir m_dir; ///< the damaged files, made once
    std::unique_ptr<MainWindow> window;
    WorkspaceState m_start;

    QString at(const QString &name) const { return m_dir.filePath(name); }

    /// What the window says to the person: the status bar and the problem banner.
    QString shownMessages() const
    {
        QString text = window->statusBar()->currentMessage();
        ProblemBanner *banner = controlsOf(*window)->banner();
        if (banner->isVisibleTo(window.get()))
            text += "\n" + banner->message();
        return text;
    }

    void open(Way way, const QString &path, const QStringList &arguments)
    {
        switch (way) {
        case Way::Weights:
            filesOf(*window)->openWeights(path);
            break;
        case Way::Model:
        case Way::Toy:
            filesOf(*window)->openModel(path);
            break;
        case Way::Workspace:
            filesOf(*window)->openWorkspace(path);
            break;
        case Way::Drop: {
            QMimeData data;
            data.setUrls({QUrl::fromLocalFile(path)});
            const QPoint centre = window->rect().center();
            QDragEnterEvent enter(centre, Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
            QDropEvent drop(QPointF(centre), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
            // Straight to the window's handlers: QApplication::notify() passes drops on only
            // during a drag the platform started, which an offscreen test has none of.
            QObject *receiver = window.get();
            receiver->event(&enter);
            QVERIFY(enter.isAccepted());
            receiver->event(&drop);
            break;
        }
        case Way::CommandLine:
            startWith(arguments);
            break;
        }
    }

    /// What app/gui/main.cpp does with its arguments once the window exists.
    void startWith(const QStringList &arguments)
    {
        std::vector<std::string> args;
        for (const QString &a : arguments)
            args.push_back(a.toStdString());
        const StartupOptions options(CommandLine::parse(args, true));
        if (!options.workspacePath().isEmpty())
            filesOf(*window)->openWorkspace(options.workspacePath());
        workspaceOf(*window)->setState(options.appliedTo(workspaceOf(*window)->state()));
        window->recompute();
    }

    void makeWeights();
    void makeModelFolders();
    void makeToyModels();
    void makeWorkspaces();
    void makeUnreadable();

private slots:
    void initTestCase();
    void init();
    void cleanupTestCase() { window.reset(); }

    void refusedWithAMessage_data();
    void refusedWithAMessage();
    void noReadPermission();
    void nanWeightsAreNamedAndMarked_data();
    void nanWeightsAreNamedAndMarked();
};

void TestBadFilesWindow::makeWeights()
{
    const QString good = QString(HEADLENS_TEST_DATA) + "/golden/self_bias.npz";
    const QByteArray bytes = readAll(good);
    writeAll(at("w_empty.npz"), {});
    writeAll(at("w_cut_header.npz"), bytes.left(20));
    writeAll(at("w_cut_half.npz"), bytes.left(bytes.size() / 2));
    writeAll(at("w_cut_tail.npz"), bytes.left(bytes.size() - 10)); // its central directory
    writeAll(at("w_random.npz"), randomBytes(4000, 1));

    std::vector<std::pair<std::string, Tensor>> entries = NpzArchive::read(good.toStdString());
    const QByteArray stored =
        QByteArray::fromStdString(NpzArchive::serialize(entries, false, "w.npz"));
    const Tensor *inProj = nullptr;
    for (const auto &[name, tensor] : entries)
        if (name == "in_proj_weight")
            inProj = &tensor;
    QVERIFY(inProj);
    const QByteArray npy = QByteArray::fromStdString(NpyFile::serialize(*inProj));
    // A big-endian float32 .npy (numpy on another machine): the same bytes, another dtype.
    const QByteArray bigEndian = npyHeaderEdited(npy, "'<f4'", "'>f4'");
    writeAll(at("w_dtype.npz"), replacedMember(stored, npy, bigEndian));
    // 24 x 8 declared as 2^31 x 8: the header asks for 64 GiB that the member does not hold.
    const QByteArray huge = npyHeaderEdited(npy, "(24, 8)", "(2147483648, 8)");
    writeAll(at("w_huge.npz"), replacedMember(stored, npy, huge));
    QVERIFY(readAll(at("w_dtype.npz")).size() == stored.size());
    QVERIFY(readAll(at("w_huge.npz")).size() == stored.size());
    // W_Q's first row (head 0's first query dimension) holds a NaN and an infinity.
    for (auto &[name, tensor] : entries)
        if (name == "in_proj_weight") {
            tensor.data()[0] = kNan;
            tensor.data()[1] = kInf;
        }
    NpzArchive::write(at("w_nan.npz").toStdString(), entries, false);
}

void TestBadFilesWindow::makeModelFolders()
{
    const QString tiny = QString(HEADLENS_TEST_DATA) + "/gpt2/tiny";
    const QByteArray weights = readAll(tiny + "/model.safetensors");
    const QByteArray config = readAll(tiny + "/config.json");
    auto folder = [&](const QString &name, const QString &file, const QByteArray &bytes) {
        copyFolder(tiny, at(name));
        if (!file.isEmpty())
            writeAll(at(name + "/" + file), bytes);
    };
    folder("m_empty", "model.safetensors", {});
    folder("m_cut_length", "model.safetensors", weights.left(5));
    folder("m_cut_header", "model.safetensors", weights.left(300));
    folder("m_cut_data", "model.safetensors", weights.left(weights.size() - 100));
    folder("m_random", "model.safetensors", randomBytes(5000, 2));
    QJsonObject header = headerOf(weights);
    QJsonObject attention = header["h.0.attn.c_attn.weight"].toObject();
    attention["dtype"] = "I32"; // a dtype safetensors defines, that no float layer has
    header["h.0.attn.c_attn.weight"] = attention;
    folder("m_dtype", "model.safetensors", withHeader(weights, header));
    header = headerOf(weights);
    attention = header["h.0.attn.c_attn.weight"].toObject();
    attention["shape"] = QJsonArray{16, 48000000000.0};
    header["h.0.attn.c_attn.weight"] = attention;
    folder("m_huge_shape", "model.safetensors", withHeader(weights, header));
    QJsonObject json = QJsonDocument::fromJson(config).object();
    json["n_embd"] = 24; // the checkpoint's matrices are 16 wide
    folder("m_wider", "config.json", QJsonDocument(json).toJson());
    json = QJsonDocument::fromJson(config).object();
    json["n_layer"] = 1000000000;
    folder("m_huge_layers", "config.json", QJsonDocument(json).toJson());
    folder("m_config_random", "config.json", randomBytes(300, 3));
    folder("m_config_empty", "config.json", {});
    // The config.json of the folder is a folder.
    folder("m_config_folder", "", {});
    QVERIFY(QFile::remove(at("m_config_folder/config.json")));
    QVERIFY(QDir().mkdir(at("m_config_folder/config.json")));
    // Layer 0's attention with three NaN and one infinity among its 16 x 48 weights.
    folder("m_nan", "model.safetensors",
           withValues(weights, "h.0.attn.c_attn.weight", {kNan, kNan, kInf, kNan}));
    // A "folder" that is a file.
    writeAll(at("m_file"), weights);
}

void TestBadFilesWindow::makeToyModels()
{
    TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
    settings.model = {1, 2, 16, 8, 8, false};
    const QString good = at("toy_good.npz");
    ToyModelFile::save(good.toStdString(), Trainer(settings).trainedModel());
    const QByteArray bytes = readAll(good);
    writeAll(at("toy_empty.npz"), {});
    writeAll(at("toy_cut_half.npz"), bytes.left(bytes.size() / 2));
    writeAll(at("toy_cut_tail.npz"), bytes.left(bytes.size() - 30));
    // Random bytes that still hold the name a toy model's zip directory lists.
    writeAll(at("toy_random.npz"), randomBytes(3000, 4) + "headlens_toy_settings");
    auto entries = NpzArchive::read(good.toStdString());
    for (auto &[name, tensor] : entries)
        if (name == "headlens_toy_settings")
            tensor.data()[5] = 1e8f; // a vocabulary of 10^8 tokens
    NpzArchive::write(at("toy_huge.npz").toStdString(), entries, false);
    // Layer 0's W_Q[0][0], head 0's first query dimension: a training run that overflowed.
    entries = NpzArchive::read(good.toStdString());
    for (auto &[name, tensor] : entries)
        if (name == "layers.0.attn.in_proj_weight")
            tensor.data()[0] = kNan;
    NpzArchive::write(at("toy_nan.npz").toStdString(), entries, false);
    QVERIFY(QFile::remove(good));
}

void TestBadFilesWindow::makeWorkspaces()
{
    const QString good = at("ws_good.headlens");
    WorkspaceFile::save(good, m_start);
    const QByteArray bytes = readAll(good);
    writeAll(at("ws_empty.headlens"), {});
    writeAll(at("ws_cut.headlens"), bytes.left(bytes.size() / 2));
    writeAll(at("ws_random.headlens"), randomBytes(2000, 5));
    QJsonObject json = QJsonDocument::fromJson(bytes).object();
    QVERIFY(json.contains("settings"));
    QJsonObject config = json["settings"].toObject();
    config["heads"] = "eight";
    json["settings"] = config;
    writeAll(at("ws_wrong_type.headlens"), QJsonDocument(json).toJson());
    config["heads"] = 4.0e12;
    json["settings"] = config;
    writeAll(at("ws_huge.headlens"), QJsonDocument(json).toJson());
    QVERIFY(QDir().mkdir(at("ws_folder.headlens")));
    QVERIFY(QFile::remove(good));
}

// Files nobody can read, even root: a FIFO (opening it waits for a writer that never comes)
// and symbolic links to nothing.
void TestBadFilesWindow::makeUnreadable()
{
    QCOMPARE(::mkfifo(at("fifo.npz").toLocal8Bit().constData(), 0600), 0);
    QCOMPARE(::mkfifo(at("fifo.headlens").toLocal8Bit().constData(), 0600), 0);
    QVERIFY(QFile::link(at("gone.npz"), at("dangling.npz")));
    copyFolder(QString(HEADLENS_TEST_DATA) + "/gpt2/tiny", at("m_fifo_config"));
    QVERIFY(QFile::remove(at("m_fifo_config/config.json")));
    QCOMPARE(::mkfifo(at("m_fifo_config/config.json").toLocal8Bit().constData(), 0600), 0);
    copyFolder(QString(HEADLENS_TEST_DATA) + "/gpt2/tiny", at("m_fifo_weights"));
    QVERIFY(QFile::remove(at("m_fifo_weights/model.safetensors")));
    QCOMPARE(::mkfifo(at("m_fifo_weights/model.safetensors").toLocal8Bit().constData(), 0600), 0);
    copyFolder(QString(HEADLENS_TEST_DATA) + "/gpt2/tiny", at("m_dangling"));
    QVERIFY(QFile::remove(at("m_dangling/model.safetensors")));
    QVERIFY(QFile::link(at("gone.safetensors"), at("m_dangling/model.safetensors")));
}

void TestBadFilesWindow::initTestCase()
{
    keepSettingsIn(m_settings.path());
    m_start.text = "the cat sat on the mat";
    m_start.config.causal = false;
    makeWeights();
    makeModelFolders();
    makeToyModels();
    makeWorkspaces();
    makeUnreadable();
    // Not on a screen: the window's own rule then shows no message box (FileCommands).
    window = offscreenWindow();
}

// Each case starts from the same picture of the built-in layer, nothing said.
void TestBadFilesWindow::init()
{
    workspaceOf(*window)->setState(m_start);
    window->recompute();
    QVERIFY(waitUntilSettled(*window));
    window->statusBar()->clearMessage();
    controlsOf(*window)->clearProblem();
    QVERIFY(shownTraceOf(*window)->config.heads == m_start.config.heads);
    QVERIFY(workspaceOf(*window)->state().modelPath.isEmpty());
}

void TestBadFilesWindow::refusedWithAMessage_data()
{
    QTest::addColumn<Way>("way");
    QTest::addColumn<QString>("name");      // in the folder of damaged files
    QTest::addColumn<QStringList>("says");  // every fragment must be in what is shown
    QTest::addColumn<QStringList>("extra"); // command-line arguments after the path's option
    const QStringList none;
    auto row = [&](const char *tag, Way way, const QString &name, const QStringList &says,
                   const QStringList &extra = {}) {
        QTest::newRow(tag) << way << name << says << extra;
    };
    // Weights for the built-in layer.
    row("weights: empty", Way::Weights, "w_empty.npz", {"w_empty.npz"});
    row("weights: cut in the header", Way::Weights, "w_cut_header.npz", {"w_cut_header.npz"});
    row("weights: cut in half", Way::Weights, "w_cut_half.npz", {"w_cut_half.npz"});
    row("weights: cut before the end", Way::Weights, "w_cut_tail.npz", {"w_cut_tail.npz"});
    row("weights: random bytes", Way::Weights, "w_random.npz", {"w_random.npz"});
    row("weights: big-endian dtype", Way::Weights, "w_dtype.npz",
        {"w_dtype.npz", "in_proj_weight"});
    row("weights: huge shape", Way::Weights, "w_huge.npz", {"w_huge.npz", "in_proj_weight"});
    row("weights: a folder", Way::Weights, "m_empty", {"m_empty", "folder"});
    row("weights: a FIFO", Way::Weights, "fifo.npz", {"fifo.npz", "not a regular file"});
    row("weights: a dangling link", Way::Weights, "dangling.npz",
        {"dangling.npz", "No such file or directory", "Check the path"});
    // Model folders (GPT-2 tiny, damaged one way each).
    row("model: empty weights", Way::Model, "m_empty", {"m_empty/model.safetensors"});
    row("model: cut in the length", Way::Model, "m_cut_length", {"m_cut_length/model.safetensors"});
    row("model: cut in the header", Way::Model, "m_cut_header",
        {"m_cut_header/model.safetensors", "truncated"});
    row("model: cut in the data", Way::Model, "m_cut_data", {"m_cut_data/model.safetensors"});
    row("model: random weights", Way::Model, "m_random", {"m_random/model.safetensors"});
    row("model: I32 attention", Way::Model, "m_dtype",
        {"m_dtype/model.safetensors", "h.0.attn.c_attn.weight"});
    row("model: huge shape", Way::Model, "m_huge_shape",
        {"m_huge_shape/model.safetensors", "h.0.attn.c_attn.weight"});
    row("model: config wider than the weights", Way::Model, "m_wider", {"m_wider", "n_embd"});
    row("model: a billion layers", Way::Model, "m_huge_layers", {"m_huge_layers", "n_layer"});
    row("model: random config", Way::Model, "m_config_random", {"m_config_random/config.json"});
    row("model: empty config", Way::Model, "m_config_empty", {"m_config_empty/config.json"});
    row("model: config.json a folder", Way::Model, "m_config_folder",
        {"m_config_folder/config.json", "it is a folder", "config.json beside its weights"});
    row("model: config.json a FIFO", Way::Model, "m_fifo_config",
        {"m_fifo_config/config.json", "not a regular file"});
    row("model: weights a FIFO", Way::Model, "m_fifo_weights",
        {"m_fifo_weights/model.safetensors", "not a regular file"});
    row("model: weights a dangling link", Way::Model, "m_dangling",
        {"m_dangling/model.safetensors", "No such file or directory"});
    row("model: a file, not a folder", Way::Model, "m_file",
        {"m_file", "not a HeadLens toy model"});
    // Toy models.
    row("toy: empty", Way::Toy, "toy_empty.npz", {"toy_empty.npz"});
    row("toy: cut in half", Way::Toy, "toy_cut_half.npz", {"toy_cut_half.npz"});
    row("toy: cut before the end", Way::Toy, "toy_cut_tail.npz", {"toy_cut_tail.npz"});
    row("toy: random bytes", Way::Toy, "toy_random.npz", {"toy_random.npz"});
    row("toy: vocabulary of 10^8", Way::Toy, "toy_huge.npz", {"toy_huge.npz", "field 5"});
    row("toy: a FIFO", Way::Toy, "fifo.npz", {"fifo.npz"});
    // Workspaces.
    row("workspace: empty", Way::Workspace, "ws_empty.headlens", {"ws_empty.headlens"});
    row("workspace: cut", Way::Workspace, "ws_cut.headlens", {"ws_cut.headlens"});
    row("workspace: random", Way::Workspace, "ws_random.headlens", {"ws_random.headlens"});
    row("workspace: heads \"eight\"", Way::Workspace, "ws_wrong_type.headlens",
        {"ws_wrong_type.headlens", "heads"});
    row("workspace: 4e12 heads", Way::Workspace, "ws_huge.headlens", {"ws_huge.headlens", "heads"});
    row("workspace: a folder", Way::Workspace, "ws_folder.headlens",
        {"ws_folder.headlens", "folder"});
    row("workspace: a FIFO", Way::Workspace, "fifo.headlens",
        {"fifo.headlens", "not a regular file"});
    // Dropped on the window: each kind of file it takes.
    row("drop: weights cut in half", Way::Drop, "w_cut_half.npz", {"w_cut_half.npz"});
    row("drop: model folder, random weights", Way::Drop, "m_random",
        {"m_random/model.safetensors"});
    row("drop: config.json a FIFO", Way::Drop, "m_fifo_config",
        {"m_fifo_config/config.json", "not a regular file"});
    row("drop: toy model, huge vocabulary", Way::Drop, "toy_huge.npz", {"toy_huge.npz"});
    row("drop: random workspace", Way::Drop, "ws_random.headlens", {"ws_random.headlens"});
    row("drop: a FIFO workspace", Way::Drop, "fifo.headlens", {"fifo.headlens"});
    row("drop: something else", Way::Drop, "m_file", {"m_file", "HeadLens opens workspaces"});
    // `headlens --model DIR`, `headlens --weights FILE`, `headlens FILE.headlens`.
    row("command line: --model, cut weights", Way::CommandLine, "m_cut_data",
        {"m_cut_data/model.safetensors"}, {"--model"});
    row("command line: --model, a file", Way::CommandLine, "m_file", {"m_file"}, {"--model"});
    row("command line: --weights, random", Way::CommandLine, "w_random.npz", {"w_random.npz"},
        {"--weights"});
    row("command line: --weights, a FIFO", Way::CommandLine, "fifo.npz",
        {"fifo.npz", "not a regular file"}, {"--weights"});
    row("command line: a cut workspace", Way::CommandLine, "ws_cut.headlens", {"ws_cut.headlens"},
        {});
}

// Refused with a message naming the file; the picture on screen stays, nothing is written.
void TestBadFilesWindow::refusedWithAMessage()
{
    QFETCH(Way, way);
    QFETCH(QString, name);
    QFETCH(QStringList, says);
    QFETCH(QStringList, extra);
    const QString path = at(name);
    const std::shared_ptr<const Trace> before = shownTraceOf(*window);
    const QStringList files = listing(m_dir.path());
    const QStringList settings = listing(m_settings.path());

    open(way, path, extra + QStringList{path});
    QVERIFY(waitUntilIdle(*window));

    const QString shown = shownMessages();
    for (const QString &fragment : says)
        QVERIFY2(shown.contains(fragment), qPrintable(fragment + " is not in: " + shown));
    // Every refusal ends with what to do (a sentence after the reason), not the reason alone.
    QVERIFY2(shown.trimmed().endsWith('.') || shown.trimmed().endsWith(')'), qPrintable(shown));
    QVERIFY(samePicture(before, shownTraceOf(*window)));
    QCOMPARE(listing(m_dir.path()), files);
    QCOMPARE(listing(m_settings.path()), settings);
}

// chmod 000 stops everyone but root, and tests here run as root (who reads anything): so the
// case is checked where access() refuses; as root the FIFO and dangling-link rows above stand
// for "cannot be read".
void TestBadFilesWindow::noReadPermission()
{
    const QString folder = at("m_locked");
    copyFolder(QString(HEADLENS_TEST_DATA) + "/gpt2/tiny", folder);
    const QString config = folder + "/config.json";
    QVERIFY(QFile::setPermissions(config, QFileDevice::Permissions()));
    const bool refused = ::access(config.toLocal8Bit().constData(), R_OK) != 0;
    const std::shared_ptr<const Trace> before = shownTraceOf(*window);
    filesOf(*window)->openModel(folder);
    QVERIFY(waitUntilIdle(*window));
    if (refused) {
        const QString shown = shownMessages();
        QVERIFY2(shown.contains(config) && shown.contains("Permission denied"), qPrintable(shown));
        QCOMPARE(shownTraceOf(*window), before);
    } else {
        qInfo("access() reads a mode-000 file (running as root): the model opens, as it must");
        QVERIFY(shownTraceOf(*window) != before);
        QCOMPARE(workspaceOf(*window)->state().modelPath, QFileInfo(folder).absoluteFilePath());
    }
    QVERIFY(QFile::setPermissions(config, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
}

void TestBadFilesWindow::nanWeightsAreNamedAndMarked_data()
{
    QTest::addColumn<Way>("way");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("says");
    QTest::addColumn<bool>("causal");
    // Row 0 of W_Q (in_proj_weight's first 8 values) is head 0's first query dimension.
    QTest::newRow("built-in layer's weights")
        << Way::Weights << "w_nan.npz"
        << "w_nan.npz: 'in_proj_weight' holds 1 NaN and 1 infinite "
           "values among its 192"
        << false;
    // GPT-2's c_attn.weight is (d_model, 3 d_model) = (16, 48), x W: its first values feed
    // head 0's first query dimensions.
    QTest::newRow("GPT-2 folder") << Way::Model << "m_nan"
                                  << "'h.0.attn.c_attn.weight' holds 3 NaN and 1 infinite values "
                                     "among its 768"
                                  << true;
    // The toy model's in-projection is (3 d_model, d_model) = (48, 16).
    QTest::newRow("toy model") << Way::Toy << "toy_nan.npz"
                               << "toy_nan.npz: 'layers.0.attn.in_proj_weight' holds 1 NaN value "
                                  "among its 768"
                               << true;
}

// Damaged weights still open (the window can show where the damage lands): the banner names
// the tensor and the count, the status bar says as much of it as fits beside the summary, and
// head 0, whose queries are all NaN, is veiled as "not a number" (in the Heads view and on the
// Model tab) and its statistics are dashes, while head 1 is drawn as usual.
void TestBadFilesWindow::nanWeightsAreNamedAndMarked()
{
    QFETCH(Way, way);
    QFETCH(QString, name);
    QFETCH(QString, says);
    QFETCH(bool, causal);
    open(way, at(name), {});
    QVERIFY(QTest::qWaitFor(
        [&] {
            return !runnerOf(*window)->isBusy() && shownTraceOf(*window) &&
                   controlsOf(*window)->banner()->message().contains(says);
        },
        20000));
    QApplication::processEvents();
    // The status bar: the start of the same sentence, up to the tensor's name at least.
    const QString line = window->statusBar()->currentMessage();
    QString start = line;
    if (start.endsWith(QChar(0x2026))) // "…": the rest is in the banner
        start.chop(1);
    QVERIFY2(!start.isEmpty() && controlsOf(*window)->banner()->message().contains(start),
             qPrintable(line));
    QVERIFY2(line.contains(says.section('\'', 1, 1)), qPrintable(line));
    const auto *summary = window->statusBar()->findChild<QLabel *>("traceSummary");
    QVERIFY(summary);
    QCOMPARE_LE(window->statusBar()->fontMetrics().horizontalAdvance(line), summary->x());
    const Trace &trace = *shownTraceOf(*window);
    const int64_t n = trace.input.queryLengthOf(0);
    QVERIFY(n > 2);
    // Every visible cell of head 0: all n^2, or the n(n+1)/2 on and below the diagonal.
    const int64_t visible = causal ? n * (n + 1) / 2 : n * n;
    HeatmapPlot *head0 = gridOf(*window)->plot(0);
    QCOMPARE(head0->dimLabel(), QString("not a number: %1 of %2 weights").arg(visible).arg(n * n));
    QVERIFY(!gridOf(*window)->plot(1)->isDimmed());
    const float weight = trace.tensor(keys::attentionWeights).at({0, 1, n - 1, 0});
    QVERIFY(std::isfinite(weight));
    QVERIFY2(head0->title().endsWith("H — · dist —"), qPrintable(head0->title()));
    QVERIFY2(head0->titleToolTip().contains("not numbers"), qPrintable(head0->titleToolTip()));
    QVERIFY2(!gridOf(*window)->plot(1)->title().contains("—"),
             qPrintable(gridOf(*window)->plot(1)->title()));
    if (way == Way::Weights)
        return; // the built-in layer has no Model tab
    const ModelGridView *thumbnails = modelsOf(*window)->overview()->grid();
    tabsOf(*window)->setCurrentWidget(modelsOf(*window)->overview()); // drawn when shown
    QTRY_VERIFY(thumbnails->plotCount() > 1 && thumbnails->plot(0, 0)->isDimmed());
    QCOMPARE(thumbnails->plot(0, 0)->dimLabel(), QString("not a number"));
    QVERIFY(thumbnails->plot(0, 0)->toolTip().contains(
        QString("not a number: %1 of %2 weights").arg(visible).arg(n * n)));
    QVERIFY(!thumbnails->plot(0, 1)->isDimmed());
}

HEADLENS_TEST_MAIN(TestBadFilesWindow)
#include "tst_badfileswindow.moc"
