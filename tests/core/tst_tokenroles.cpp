// Tests of TokenRoles: which tokens count as [CLS], [SEP] and punctuation, and the heads' shares.
#include "approx.h"

#include "stats/tokenroles.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using namespace headlens;

class TestTokenRoles : public QObject
{
    Q_OBJECT

private slots:
    void rolesComeFromIdsAndLabels()
    {
        // ids 101 / 102 are [CLS] / [SEP]; labels as the views show them ("␣" a leading space).
        const TokenRoles roles = TokenRoles::of(
            {101, 7, 8, 9, 10, 11, 102},
            {"[CLS]", "\u2423the", "\u2423.", "!?", "a.b", "\u2423", "[SEP]"}, 101, 102);
        QVERIFY(roles.has(0, TokenRoles::Cls) && !roles.has(0, TokenRoles::Punctuation));
        QVERIFY(!roles.has(1, TokenRoles::Punctuation));
        QVERIFY(roles.has(2, TokenRoles::Punctuation));  // "␣." is punctuation after a space
        QVERIFY(roles.has(3, TokenRoles::Punctuation));  // every character punctuation
        QVERIFY(!roles.has(4, TokenRoles::Punctuation)); // letters too
        QVERIFY(!roles.has(5, TokenRoles::Punctuation)); // a space alone is not
        QVERIFY(roles.has(6, TokenRoles::Sep) && !roles.has(6, TokenRoles::Cls));
        QVERIFY(!roles.has(7, TokenRoles::Sep)); // past the end: no role
    }

    void sharesAreMeansOverTheRealRows()
    {
        // Keys: [CLS] x . [SEP]; row 2 is fully masked and left out of every mean.
        const TokenRoles roles =
            TokenRoles::of({1, 5, 6, 2}, {"[CLS]", "\u2423x", ".", "[SEP]"}, 1, 2);
        RowMatrix w(4, 4);
        w << 0.5f, 0.5f, 0.0f, 0.0f, //
            0.1f, 0.2f, 0.3f, 0.4f,  //
            0.0f, 0.0f, 0.0f, 0.0f,  //
            0.25f, 0.25f, 0.25f, 0.25f;
        HeadStats s;
        roles.addShares(w, 4, 4, s);
        QVERIFY(test::isClose(s.clsShare, (0.5 + 0.1 + 0.25) / 3, 1e-6, 1e-7));
        QVERIFY(test::isClose(s.sepShare, (0.0 + 0.4 + 0.25) / 3, 1e-6, 1e-7));
        QVERIFY(test::isClose(s.punctuationShare, (0.0 + 0.3 + 0.25) / 3, 1e-6, 1e-7));
    }

    void aRoleNoTokenHasStaysNaN()
    {
        // GPT-2's text "Hello world": no [CLS], no [SEP], no punctuation.
        const TokenRoles roles = TokenRoles::of({10, 11}, {"Hello", "\u2423world"}, -1, -1);
        RowMatrix w(2, 2);
        w << 1.0f, 0.0f, 0.5f, 0.5f;
        HeadStats s;
        roles.addShares(w, 2, 2, s);
        QVERIFY(std::isnan(s.clsShare) && std::isnan(s.sepShare) && std::isnan(s.punctuationShare));
    }
};

HEADLENS_TEST_APPLESS_MAIN(TestTokenRoles)
#include "tst_tokenroles.moc"
