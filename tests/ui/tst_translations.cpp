// SPDX-License-Identifier: GPL-3.0-or-later
// The German translation is complete: lupdate over the current ui/ and app/ sources into a
// copy of translations/sandbox-studio_de.ts must find no new, unfinished or empty message
// (each one is listed on failure), every translation keeps the placeholders of its source,
// and the built .qm turns the window German.
#include "aboutdialog.h"
#include "mainwindow.h"
#include "preferencesdialog.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace {

struct Message
{
    QString context;
    QString source;
    QStringList translations;
    QString type; // "", "unfinished", "vanished", "obsolete"
};

QList<Message> readTs(const QString &path, QString *error)
{
    QList<Message> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.errorString();
        return out;
    }
    QXmlStreamReader xml(&f);
    QString context;
    Message current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == u"name")
                context = xml.readElementText();
            else if (xml.name() == u"message")
                current = Message{context, {}, {}, {}};
            else if (xml.name() == u"source")
                current.source = xml.readElementText();
            else if (xml.name() == u"translation") {
                current.type = xml.attributes().value(u"type"_s).toString();
                // Either text or <numerusform> children.
                QString text;
                while (!xml.atEnd()) {
                    xml.readNext();
                    if (xml.isCharacters())
                        text += xml.text();
                    else if (xml.isStartElement() && xml.name() == u"numerusform")
                        current.translations << xml.readElementText();
                    else if (xml.isEndElement() && xml.name() == u"translation")
                        break;
                }
                if (current.translations.isEmpty())
                    current.translations << text;
            }
        } else if (xml.isEndElement() && xml.name() == u"message") {
            out.append(current);
        }
    }
    if (xml.hasError())
        *error = xml.errorString();
    return out;
}

QStringList placeholders(const QString &s)
{
    QStringList out;
    static const QRegularExpression re(u"%(\\d|n)"_s);
    for (const auto &m : re.globalMatch(s))
        if (!out.contains(m.captured()))
            out << m.captured();
    out.sort();
    return out;
}

} // namespace

class TestTranslations final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyStringIsTranslated();
    void translationsKeepPlaceholders();
    void theWindowSpeaksGerman();
    void theSystemLocaleIsFollowed();
};

void TestTranslations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(QFileInfo::exists(QStringLiteral(SANDBOX_LUPDATE)),
             "lupdate is missing: install qt6-l10n-tools");
}

void TestTranslations::everyStringIsTranslated()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString ts = tmp.filePath(u"check_de.ts"_s);
    QVERIFY(QFile::copy(QStringLiteral(SANDBOX_TS_FILE), ts));
    QFile::setPermissions(ts, QFile::ReadOwner | QFile::WriteOwner);

    // The same lupdate call as ./studio.sh translations, on the sources of this tree.
    QProcess lupdate;
    lupdate.setWorkingDirectory(QStringLiteral(SANDBOX_SOURCE_DIR));
    lupdate.setProcessChannelMode(QProcess::MergedChannels);
    lupdate.start(QStringLiteral(SANDBOX_LUPDATE),
                  {u"-no-obsolete"_s, u"-locations"_s, u"none"_s, u"ui"_s, u"app"_s, u"-ts"_s, ts});
    QVERIFY(lupdate.waitForFinished(120'000));
    const QString log = QString::fromLocal8Bit(lupdate.readAll());
    QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0,
             qPrintable(log));

    QString error;
    const QList<Message> messages = readTs(ts, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(messages.size() > 300, "lupdate found the application's strings");
    QStringList untranslated;
    for (const Message &m : messages) {
        const bool empty = std::any_of(m.translations.cbegin(), m.translations.cend(),
                                       [](const QString &t) { return t.trimmed().isEmpty(); });
        if (m.type == u"unfinished" || empty)
            untranslated << u"  %1: \"%2\""_s.arg(m.context, m.source);
    }
    QVERIFY2(untranslated.isEmpty(),
             qPrintable(u"%1 user-visible strings have no German translation; run "
                        "./studio.sh translations, translate them in "
                        "translations/sandbox-studio_de.ts (Qt Linguist or an editor) and "
                        "commit:\n%2"_s.arg(untranslated.size())
                            .arg(untranslated.join(u'\n'))));
}

void TestTranslations::translationsKeepPlaceholders()
{
    QString error;
    const QList<Message> messages = readTs(QStringLiteral(SANDBOX_TS_FILE), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QStringList wrong;
    for (const Message &m : messages) {
        if (m.type == u"vanished" || m.type == u"obsolete")
            continue;
        for (const QString &t : m.translations) {
            QStringList expected = placeholders(m.source);
            QStringList got = placeholders(t);
            // German singular forms may spell the number out; plural forms keep %n.
            if (m.translations.size() > 1) {
                expected.removeAll(u"%n"_s);
                got.removeAll(u"%n"_s);
            }
            if (expected != got)
                wrong << u"  %1: \"%2\" -> \"%3\""_s.arg(m.context, m.source, t);
        }
    }
    QVERIFY2(wrong.isEmpty(), qPrintable(u"placeholders differ:\n"_s + wrong.join(u'\n')));
}

void TestTranslations::theWindowSpeaksGerman()
{
    QCOMPARE(StudioSettings::installTranslators(qApp, u"de"_s), u"de"_s);
    {
        MainWindow window(nullptr);
        QStringList menus;
        for (QAction *a : window.menuBar()->actions())
            menus << a->text();
        QVERIFY2(menus.contains(u"&Datei"_s), qPrintable(menus.join(u", "_s)));
        QVERIFY2(menus.contains(u"&Hilfe"_s), qPrintable(menus.join(u", "_s)));
        QCOMPARE(window.preferencesAction()->text(), u"&Einstellungen …"_s);
        const QString help = AboutDialog::helpHtml(window.shortcutActions());
        QVERIFY(help.contains(u"Tastenkürzel"_s));
        QVERIFY(help.contains(u"Kommandozeile"_s));
        // Numerus forms work.
        QCOMPARE(QCoreApplication::translate("ArtifactGallery", "%n artifact(s) · %1", nullptr, 2)
                     .arg(u"x"_s),
                 u"2 Artefakte · x"_s);
    }
    QCOMPARE(StudioSettings::installTranslators(qApp, u"en"_s), u"en"_s);
    MainWindow english(nullptr);
    QCOMPARE(english.preferencesAction()->text(), u"&Preferences…"_s);
}

void TestTranslations::theSystemLocaleIsFollowed()
{
    // No override: the system locale decides. ctest runs this with LANG=de_DE.UTF-8.
    QVERIFY2(QLocale::system().name().startsWith(u"de"_s),
             "run with LANG=de_DE.UTF-8 (the ctest entry sets it)");
    QCOMPARE(StudioSettings::installTranslators(qApp, QString()), u"de"_s);
    {
        MainWindow window(nullptr);
        QCOMPARE(window.preferencesAction()->text(), u"&Einstellungen …"_s);
    }
    QCOMPARE(StudioSettings::installTranslators(qApp, u"en"_s), u"en"_s);
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
