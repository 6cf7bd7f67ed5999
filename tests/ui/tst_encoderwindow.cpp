// tst_encoderwindow: a BERT folder in the real window (a pair, a [MASK]), checked against the core.
#include "model/transformermodel.h"
#include "models/modelcontroller.h"
#include "models/modeloverview.h"
#include "models/predictionsbox.h"
#include "models/predictionspanel.h"
#include "testdata.h"
#include "testmain.h"
#include "views/headstatsmodel.h"
#include "views/headstatstable.h"
#include "window/filecommands.h"
#include "window/modelwiring.h"
#include "windowparts.h"
#include "windowsettled.h"
#include "workspace/workspace.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace headlens;
using headlens::test::filesOf;
using headlens::test::modelsOf;
using headlens::test::waitUntilSettled;
using headlens::test::workspaceOf;

namespace {

const QString kSentenceA = "The cat sat on the mat.";
const QString kSentenceB = "The dog ran [MASK]!";

} // namespace

class TestEncoderWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> window;

    std::shared_ptr<const ModelRun> run() const { return modelsOf(*window)->controller()->run(); }

private slots:
    void initTestCase()
    {
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
        QSettings::setDefaultFormat(QSettings::IniFormat);
    }

    /// A person opens the BERT folder, types sentence A and a sentence B with a [MASK]: the
    /// window runs the pair the core encodes, lists the fillers the core computes, and the
    /// statistics table sorts the heads by their [SEP] share.
    void aPairWithAMaskShowsTheCoresFillersAndShares()
    {
        window = std::make_unique<MainWindow>();
        window->resize(1280, 720);
        window->setAttribute(Qt::WA_DontShowOnScreen);
        window->show();
        workspaceOf(*window)->setText(kSentenceA);
        workspaceOf(*window)->setKvText(kSentenceB);
        QVERIFY(filesOf(*window)->openModel(test::bertMlm()));
        QTRY_VERIFY_WITH_TIMEOUT(run() && run()->segments.size() > 0 &&
                                     std::count(run()->segments.begin(), run()->segments.end(), 1) >
                                         0,
                                 20000);
        QVERIFY(waitUntilSettled(*window));

        const TransformerModel model = TransformerModel::open(test::bertMlm().toStdString());
        const ModelInput input =
            model.encodePair(kSentenceA.toStdString(), kSentenceB.toStdString());
        QCOMPARE(run()->tokenIds, input.tokenIds);
        QCOMPARE(run()->segments, input.segments);
        const TransformerRun expected = model.run(input);

        // The fillers of the one mask, in the core's order, as the panel lists them.
        QCOMPARE(expected.maskFills.size(), size_t(1));
        const std::vector<TokenPrediction> shown =
            modelsOf(*window)->overview()->predictionsBox()->panel()->predictions();
        QCOMPARE(shown.size(), size_t(PredictionsBox::kFillers));
        for (size_t r = 0; r < shown.size(); ++r) {
            QCOMPARE(shown[r].tokenId, expected.maskFills[0].top[r].tokenId);
            QCOMPARE(shown[r].probability, expected.maskFills[0].top[r].probability);
        }

        // Sorting by [SEP] share, largest first: the first row is the core's head with the
        // largest share.
        HeadStatsTable *table = modelsOf(*window)->overview()->table();
        QVERIFY(!table->isColumnHidden(HeadStatsModel::SepShare));
        table->sortByColumn(HeadStatsModel::SepShare, Qt::DescendingOrder);
        int bestLayer = 0, bestHead = 0;
        for (int l = 0; l < expected.layers(); ++l)
            for (int h = 0; h < expected.heads(); ++h)
                if (expected.stats(l, h).sepShare > expected.stats(bestLayer, bestHead).sepShare)
                    bestLayer = l, bestHead = h;
        QCOMPARE(table->headAt(0), std::make_pair(bestLayer, bestHead));
    }
};

HEADLENS_TEST_MAIN(TestEncoderWindow)
#include "tst_encoderwindow.moc"
