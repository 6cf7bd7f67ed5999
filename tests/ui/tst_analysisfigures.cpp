// tst_analysisfigures: the analyses of a model on paper. The head atlas (the handout's last page,
// --figure atlas): every head's cell in the colour of how far its type stands above chance,
// named by its type; the heading, the probes, the type counts and the chances around it, in
// that order, inside the page. The logit lens and the rollout (--figure lens, rollout): the
// core's values, words and scales.
#include "drawnheatmap.h"
#include "pdfpages.h"

#include "export/figureexporter.h"
#include "model/modelopener.h"
#include "model/runflow.h"
#include "print/atlaspage.h"
#include "print/heatmapsheet.h"
#include "print/laidoutpage.h"
#include "print/sheetbuilder.h"
#include "session/session.h"
#include "testdata.h"
#include "testmain.h"
#include "views/differenceheatmap.h"

#include <qcustomplot.h>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace headlens;

namespace {

/// 2 layers x 3 heads: head 0.1 a clear previous-token head, head 1.2 a clear induction head,
/// the rest spread out; scores written by hand, the types by HeadAtlas::classify.
std::shared_ptr<const HeadAtlas> handAtlas()
{
    auto atlas = std::make_shared<HeadAtlas>();
    atlas->layers = 2;
    atlas->heads = 3;
    atlas->scores = RowMatrix::Constant(kAtlasScores, 6, 0.1f);
    atlas->scores.row(int(AtlasScore::Cls)).setConstant(std::nanf(""));
    atlas->scores.row(int(AtlasScore::Sep)).setConstant(std::nanf(""));
    atlas->scores(int(AtlasScore::PreviousToken), 0) = 0.9f; // layer 0, head 1
    atlas->scores(int(AtlasScore::Induction), 5) = 0.6f;     // layer 1, head 3
    atlas->chance.assign(size_t(kAtlasScores), 0.1);
    atlas->chance[size_t(AtlasScore::Cls)] = atlas->chance[size_t(AtlasScore::Sep)] = std::nan("");
    atlas->offsets.assign(6, 2);
    atlas->meanDistance.assign(6, 1.5);
    atlas->textTokens = 9;
    atlas->repeatedLength = 24;
    atlas->repeatedRuns = 4;
    atlas->classify();
    return atlas;
}

} // namespace

namespace {

/// The tiny GPT-2's run of a short text, its logit lens and its flow.
struct LensRun
{
    std::shared_ptr<const OpenedModel> model;
    std::shared_ptr<const ModelRun> run;
    std::shared_ptr<const LogitLens> lens;
    std::shared_ptr<const AttentionFlow> flow;
};

/// "head 1.2 drawn #ffffff, expected #b2182b" for a cell whose colour is not the one expected.
QByteArray cellColours(int layer, int head, QRgb seen, QRgb want)
{
    return QString("head %1.%2 drawn %3, expected %4")
        .arg(layer)
        .arg(head + 1)
        .arg(QColor(seen).name(), QColor(want).name())
        .toUtf8();
}

LensRun lensRun()
{
    const auto model = ModelOpener::open(test::tinyGpt2().toStdString());
    const ModelInput input(model->encode("The cat sat on the mat"));
    LensRun r;
    r.model = model;
    r.run = model->run(input, 0, {});
    r.lens = std::make_shared<const LogitLens>(model->logitLens(input, 5, {}));
    r.flow = std::make_shared<const AttentionFlow>(attentionFlowOf(*model, *r.run));
    return r;
}

} // namespace

class TestAnalysisFigures : public QObject
{
    Q_OBJECT

private slots:
    void eachCellHasItsTypesColour();
    void blocksFollowEachOtherInsideThePage();
    void figureNamesEveryHeadsType();
    void atlasFigureWithoutAtlasIsRefused();
    void lensAndRolloutSheetsHoldTheCoresValues();
    void lensAndRolloutFiguresAreWritten();
    void attributionAndCircuitsSheetsHoldTheCoresValues();
    void attributionIsDrawnInTheDivergingMap();
};

void TestAnalysisFigures::eachCellHasItsTypesColour()
{
    const auto atlas = handAtlas();
    QVERIFY(atlas->type(0, 0) == AtlasScore::PreviousToken);
    QVERIFY(atlas->type(1, 2) == AtlasScore::Induction);
    QVERIFY(!atlas->type(1, 0));
    QImage image(1000, 1400, QImage::Format_RGB32);
    image.fill(Qt::white);
    LaidOutPage laid;
    {
        QCPPainter painter(&image);
        AtlasPage(atlas, "Hand GPT", PlotStyle()).paint(painter, QRectF(40, 40, 920, 1320), &laid);
    }
    QCOMPARE(laid.heatmaps.size(), size_t(1));
    const LaidOutPage::Heatmap &map = laid.heatmaps.front();
    QCOMPARE(map.rows, 2);
    QCOMPARE(map.cols, 3);
    // Read each cell near its top-left corner (its type's word is written in the middle).
    const double width = map.cells.width() / 3.0, height = map.cells.height() / 2.0;
    QVERIFY2(width > 20 && height > 20, "cells too small to read");
    for (int layer = 0; layer < 2; ++layer)
        for (int head = 0; head < 3; ++head) {
            const QPoint at(int(map.cells.left() + (head + 0.2) * width),
                            int(map.cells.top() + (layer + 0.2) * height));
            const QRgb seen = image.pixel(at);
            const QRgb want = test::expectedColor(PlotStyle().colormap,
                                                  atlas->typeStrength(layer, head), {0.0, 1.0});
            QVERIFY2(test::sameColour(seen, want),
                     cellColours(layer, head, seen, want).constData());
        }
    // (0.9 - 0.1) / (1 - 0.1) for the previous-token head (its score a float); 0 for the heads
    // with no type.
    QCOMPARE(atlas->typeStrength(0, 0), (double(0.9f) - 0.1) / 0.9);
    QCOMPARE(atlas->typeStrength(1, 0), 0.0);
}

void TestAnalysisFigures::blocksFollowEachOtherInsideThePage()
{
    QImage image(800, 1100, QImage::Format_RGB32);
    LaidOutPage laid;
    const QRectF page(30, 30, 740, 1040);
    {
        QCPPainter painter(&image);
        AtlasPage(handAtlas(), "Hand GPT", PlotStyle()).paint(painter, page, &laid);
    }
    QStringList order;
    double bottom = page.top();
    for (const LaidOutPage::Block &block : laid.blocks) {
        order << block.what;
        QVERIFY2(block.rect.top() >= bottom - 0.5, qPrintable(block.what + " overlaps"));
        QVERIFY2(page.contains(block.rect.adjusted(0.5, 0.5, -0.5, -0.5)),
                 qPrintable(block.what + " leaves the page"));
        bottom = block.rect.bottom();
    }
    QCOMPARE(order, (QStringList{"heading", "intro", "sheet", "legend"}));
    const AtlasPage atlasPage(handAtlas(), "Hand GPT", PlotStyle());
    QCOMPARE(atlasPage.title(), QString("Head atlas of Hand GPT (2 layers × 3 heads)"));
    QVERIFY2(atlasPage.legendText().startsWith("6 heads: 1 previous token, 1 induction, 4 with no "
                                               "type that stands out."),
             qPrintable(atlasPage.legendText()));
    // [CLS] and [SEP] are not measured here: no chance is given for them.
    QVERIFY(atlasPage.legendText().contains("previous token 0.100"));
    QVERIFY(!atlasPage.legendText().contains("[CLS]"));
}

void TestAnalysisFigures::figureNamesEveryHeadsType()
{
    FigureExporter exporter(nullptr);
    exporter.setModel(lensRun().run);
    exporter.setAnalyses({handAtlas(), nullptr, nullptr, nullptr, nullptr});
    FigureRequest request;
    request.content = FigureRequest::Content::Atlas;
    QVERIFY2(exporter.problemWith(request).isEmpty(), qPrintable(exporter.problemWith(request)));
    QTemporaryDir dir;
    const QString path = dir.filePath("atlas.pdf");
    exporter.write(path, request);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const test::PdfPages pdf(file.readAll());
    QCOMPARE(pdf.pageSizes().size(), 1);
    // 16 x 12 cm.
    QVERIFY(std::abs(pdf.pageSizes().front().width() - 16 / 2.54 * 72) < 1.0);
    const QStringList texts = pdf.texts();
    for (const char *word : {"layer 0", "layer 1", "prev", "ind", "-", "head", "layer"})
        QVERIFY2(texts.contains(word), qPrintable(word + (": " + texts.join(" | "))));
    QVERIFY2(texts.join(' ').contains("type's score above chance"), qPrintable(texts.join(" | ")));
}

void TestAnalysisFigures::atlasFigureWithoutAtlasIsRefused()
{
    const FigureExporter exporter(nullptr);
    FigureRequest request;
    request.content = FigureRequest::Content::Atlas;
    QVERIFY(exporter.problemWith(request).contains("needs the head atlas of a model"));
}

void TestAnalysisFigures::lensAndRolloutSheetsHoldTheCoresValues()
{
    const LensRun r = lensRun();
    const SheetContent lens = SheetBuilder::logitLens(*r.lens, r.run->tokens);
    QCOMPARE(lens.panels.size(), size_t(1));
    QCOMPARE(lens.panels[0].pooled, r.lens->finalProbability); // 3 stages x 6 positions
    QCOMPARE(lens.panels[0].rows, 3);
    QCOMPARE(lens.rowLabels, (QStringList{"embeddings", "layer 0", "layer 1"}));
    QCOMPARE(lens.colLabels.size(), int(r.run->tokens.size()));
    QCOMPARE(lens.panels[0].range.lower, 0.0);
    QCOMPARE(lens.panels[0].range.upper, 1.0);
    // Each cell names its stage's top token.
    QCOMPARE(lens.panels[0].cellTexts.size(), 3 * int(r.lens->positions.size()));
    // The labels as the Lens tab writes them (the lens's and the run's display labels).
    QCOMPARE(
        lens.panels[0].cellTexts.back(),
        QString::fromStdString(r.lens->topAt(2, int(r.lens->positions.size()) - 1).front().label));
    QCOMPARE(lens.colLabels.front(), QString::fromStdString(r.run->tokens.front()));
    const SheetContent rollout = SheetBuilder::rollout(*r.flow, r.run->tokens);
    QCOMPARE(rollout.panels.size(), size_t(2));
    for (int64_t layer = 0; layer < 2; ++layer) {
        QCOMPARE(rollout.panels[size_t(layer)].pooled, RowMatrix(r.flow->rollout.matrix({layer})));
        QCOMPARE(rollout.panels[size_t(layer)].title,
                 QString("rollout through layer %1").arg(layer));
    }
}

void TestAnalysisFigures::lensAndRolloutFiguresAreWritten()
{
    const LensRun r = lensRun();
    FigureExporter exporter(r.run->layerTrace);
    FigureRequest request;
    request.content = FigureRequest::Content::Lens;
    QVERIFY(exporter.problemWith(request).contains("needs the logit lens"));
    request.content = FigureRequest::Content::Rollout;
    QVERIFY(exporter.problemWith(request).contains("needs the rollout"));
    exporter.setModel(r.run);
    exporter.setAnalyses({nullptr, r.lens, r.flow, nullptr, nullptr});
    QTemporaryDir dir;
    for (const auto content : {FigureRequest::Content::Lens, FigureRequest::Content::Rollout}) {
        request.content = content;
        const QString path = dir.filePath(QString("figure%1.pdf").arg(int(content)));
        exporter.write(path, request);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString texts = test::PdfPages(file.readAll()).texts().join(' ');
        const QStringList words = content == FigureRequest::Content::Lens
                                      ? QStringList{"embeddings", "layer 1", "after", "position"}
                                      : QStringList{"rollout through layer 1", "input token"};
        for (const QString &word : words)
            QVERIFY2(texts.contains(word), qPrintable(word + ": " + texts));
    }
}

void TestAnalysisFigures::attributionAndCircuitsSheetsHoldTheCoresValues()
{
    const LensRun r = lensRun();
    const OpenedModel &model = *r.model;
    const int token = model.answerToken(" the");
    const LogitAttribution attribution =
        model.attribution(ModelInput(r.run->tokenIds), -1, token, -1, 10, {});
    const SheetContent dla = SheetBuilder::attribution(attribution);
    QVERIFY(dla.diverging);
    QCOMPARE(dla.panels[0].pooled, attribution.heads);
    const double largest = double(attribution.heads.cwiseAbs().maxCoeff());
    QCOMPARE(dla.panels[0].range.lower, -largest);
    QCOMPARE(dla.panels[0].range.upper, largest);
    QCOMPARE(dla.panels[0].cellTexts.at(3),
             QString::asprintf("%+.2f", double(attribution.heads(1, 1))));
    QVERIFY2(dla.legendTitle.contains("logit(" + QString::fromStdString(attribution.tokenLabel)),
             qPrintable(dla.legendTitle));

    const HeadCircuits circuits = model.circuits(1, 1, Session::circuitTokens(model, *r.run));
    const int shown = circuits.textTokenCount(r.run->tokenIds, HeadCircuits::kMapTokens);
    QVERIFY(shown >= 2);
    const SheetContent maps = SheetBuilder::circuits(circuits, shown);
    QVERIFY(maps.diverging);
    QVERIFY(!maps.sharedLegend); // each circuit on its own scale
    QCOMPARE(maps.panels.size(), size_t(2));
    QCOMPARE(maps.panels[0].title, QString("QK of head 1.2"));
    QCOMPARE(maps.panels[1].title, QString("OV of head 1.2"));
    const RowMatrix ov = circuits.circuit.ovTokens.topLeftCorner(shown, shown);
    QCOMPARE(maps.panels[1].pooled, ov);
    QCOMPARE(maps.panels[1].range.upper, double(ov.cwiseAbs().maxCoeff()));
    QCOMPARE(maps.rowLabels.size(), shown);
}

// Signed values on paper: white at 0, red above, blue below, as the Lens tab draws them.
void TestAnalysisFigures::attributionIsDrawnInTheDivergingMap()
{
    LogitAttribution attribution;
    attribution.tokenLabel = "x";
    attribution.heads = RowMatrix(2, 2);
    attribution.heads << 1.0f, -0.5f, 0.0f, -1.0f;
    HeatmapSheet sheet(SheetBuilder::attribution(attribution), PlotStyle(), 8.0);
    QImage image(900, 700, QImage::Format_RGB32);
    image.fill(Qt::white);
    LaidOutPage laid;
    {
        QCPPainter painter(&image);
        sheet.fitLabels(6.0, 10.0, QSizeF(860, 660));
        laid.addSheet(sheet, sheet.paint(painter, QRectF(20, 20, 860, 660)));
    }
    QCOMPARE(laid.heatmaps.size(), size_t(1));
    const QRectF cells = laid.heatmaps.front().cells;
    QCPColorGradient gradient = DifferenceHeatmap::gradient(); // color() is not const
    for (int layer = 0; layer < 2; ++layer)
        for (int head = 0; head < 2; ++head) {
            // Near the corner: the value is written in the middle.
            const QPoint at(int(cells.left() + (head + 0.15) * cells.width() / 2),
                            int(cells.top() + (layer + 0.15) * cells.height() / 2));
            const QRgb seen = image.pixel(at);
            const QRgb want =
                gradient.color(double(attribution.heads(layer, head)), QCPRange(-1.0, 1.0));
            QVERIFY2(test::sameColour(seen, want),
                     cellColours(layer, head, seen, want).constData());
        }
    // The zero head is white, the strongest push red, the strongest pull blue.
    QCOMPARE(QColor(gradient.color(0.0, QCPRange(-1.0, 1.0))).lightness() > 240, true);
}

HEADLENS_TEST_MAIN(TestAnalysisFigures)
#include "tst_analysisfigures.moc"
