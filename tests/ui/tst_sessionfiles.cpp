// SPDX-License-Identifier: GPL-3.0-or-later
// Widget test of the Session Files dock against a real notebook session: the listing,
// uploads (call and drag and drop from the desktop), downloads of a selection, refusals
// shown in the status line; and the window's hooks: the dock follows the notebook's
// session, the image field reaches the notebook, a session saved as a template shows in
// the Images dock.
#include "imagemanager.h"
#include "mainwindow.h"
#include "notebookcell.h"
#include "notebookconsole.h"
#include "session/notebook.h"
#include "sessionfilespanel.h"
#include "testsupport.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <unistd.h>

using namespace sandbox;
using namespace Qt::StringLiterals;

namespace {
bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}
QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}
} // namespace

class TestSessionFiles final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void withoutSession();
    void listsUploadsAndDownloads();
    void dragAndDropUploads();
    void refusalsAreShown();
    void windowHooks();
    void cleanupTestCase();

private:
    std::shared_ptr<Engine> m_engine;
    std::shared_ptr<NotebookSession> m_session;
    QString m_template;
};

void TestSessionFiles::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (!qEnvironmentVariableIsSet("SANDBOX_AGENT_PATH"))
        qputenv("SANDBOX_AGENT_PATH", SANDBOX_AGENT_BINARY);
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
    auto s = NotebookSession::start(m_engine->runtimePtr(), u"python"_s);
    QVERIFY_RESULT(s);
    m_session = *s;
}

void TestSessionFiles::withoutSession()
{
    SessionFilesPanel panel;
    QVERIFY(panel.statusText().contains(u"No notebook session"_s));
    QVERIFY(!panel.findChild<QToolButton *>(u"uploadButton"_s)->isEnabled());
    QVERIFY(!panel.findChild<QToolButton *>(u"downloadButton"_s)->isEnabled());
    QVERIFY(panel.listedPaths().isEmpty());
}

void TestSessionFiles::listsUploadsAndDownloads()
{
    SessionFilesPanel panel;
    QSignalSpy refreshed(&panel, &SessionFilesPanel::refreshed);
    panel.setSession(m_session);
    QTRY_COMPARE_WITH_TIMEOUT(refreshed.size(), 1, 30'000);
    QVERIFY(refreshed.first().first().toBool());
    QVERIFY2(panel.listedPaths().contains(u"output/"_s),
             qPrintable(panel.listedPaths().join(u' ')));
    QVERIFY(!panel.listedPaths().contains(u".sandbox/"_s)); // the engine's own folder

    QTemporaryDir local;
    QVERIFY(writeFile(local.filePath(u"report.csv"_s), "a,b\n1,2\n"));
    QVERIFY(QDir(local.path()).mkpath(u"photos/2026"_s));
    QVERIFY(writeFile(local.filePath(u"photos/2026/p.bin"_s), QByteArray(5000, 'p')));
    QSignalSpy transferred(&panel, &SessionFilesPanel::transferFinished);
    panel.uploadLocalPaths({local.filePath(u"report.csv"_s), local.filePath(u"photos"_s)},
                           u"inbox"_s);
    QVERIFY(panel.isBusy());
    QTRY_COMPARE_WITH_TIMEOUT(transferred.size(), 1, 30'000);
    QVERIFY2(transferred.first().at(0).toBool(), qPrintable(transferred.first().at(1).toString()));
    QVERIFY(panel.statusText().startsWith(u"Uploaded"_s));
    QTRY_VERIFY_WITH_TIMEOUT(panel.listedPaths().contains(u"inbox/photos/2026/p.bin"_s), 30'000);
    QVERIFY(panel.listedPaths().contains(u"inbox/report.csv"_s));
    // The size column says how big files are.
    QTreeWidgetItemIterator it(panel.tree());
    QString size;
    for (; *it; ++it)
        if ((*it)->text(0) == u"p.bin"_s)
            size = (*it)->text(1);
    QCOMPARE(size, u"5 kB"_s);

    // The kernel sees the upload.
    auto cell = m_session->execute(u"print(open('inbox/report.csv').read().splitlines()[1])"_s);
    QVERIFY_RESULT(cell);
    QCOMPARE(cell->streamText(u"stdout"_s).trimmed(), u"1,2"_s);

    // Download a folder and a file selected together.
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isBusy(), 30'000);
    panel.selectPaths({u"inbox/photos"_s, u"inbox/report.csv"_s});
    QVERIFY(panel.findChild<QToolButton *>(u"downloadButton"_s)->isEnabled());
    QTemporaryDir out;
    transferred.clear();
    panel.downloadSelectedTo(out.path());
    QTRY_COMPARE_WITH_TIMEOUT(transferred.size(), 1, 30'000);
    QVERIFY2(transferred.first().at(0).toBool(), qPrintable(transferred.first().at(1).toString()));
    QCOMPARE(readFile(out.filePath(u"inbox/photos/2026/p.bin"_s)), QByteArray(5000, 'p'));
    QCOMPARE(readFile(out.filePath(u"inbox/report.csv"_s)), QByteArray("a,b\n1,2\n"));
    QVERIFY2(panel.statusText().startsWith(u"Downloaded 2 file(s)"_s),
             qPrintable(panel.statusText()));
}

void TestSessionFiles::dragAndDropUploads()
{
    SessionFilesPanel panel;
    QSignalSpy refreshed(&panel, &SessionFilesPanel::refreshed);
    panel.setSession(m_session);
    QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty() && !panel.isBusy(), 30'000);
    QTemporaryDir desktop;
    QVERIFY(writeFile(desktop.filePath(u"dropped.txt"_s), "dropped from the desktop"));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(desktop.filePath(u"dropped.txt"_s))});
    QWidget *viewport = panel.tree()->viewport();
    const QPoint empty(viewport->width() - 2, viewport->height() - 2); // below the entries
    QDragEnterEvent enter(empty, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &enter);
    QVERIFY(enter.isAccepted());
    QSignalSpy transferred(&panel, &SessionFilesPanel::transferFinished);
    QDropEvent drop(QPointF(empty), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &drop);
    QVERIFY(drop.isAccepted());
    QTRY_COMPARE_WITH_TIMEOUT(transferred.size(), 1, 30'000);
    QVERIFY2(transferred.first().at(0).toBool(), qPrintable(transferred.first().at(1).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(panel.listedPaths().contains(u"dropped.txt"_s), 30'000);
    auto cell = m_session->execute(u"print(open('dropped.txt').read())"_s);
    QVERIFY_RESULT(cell);
    QCOMPARE(cell->streamText(u"stdout"_s).trimmed(), u"dropped from the desktop"_s);
    // Something that is not a file (text) is not taken.
    QMimeData text;
    text.setText(u"just text"_s);
    QDragEnterEvent textEnter(empty, Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &textEnter);
    QVERIFY(!textEnter.isAccepted());
}

void TestSessionFiles::refusalsAreShown()
{
    auto cell = m_session->execute(u"import os; os.symlink('/etc', 'etc-link')"_s);
    QVERIFY_RESULT(cell);
    QVERIFY(cell->ok());
    SessionFilesPanel panel;
    QSignalSpy refreshed(&panel, &SessionFilesPanel::refreshed);
    panel.setSession(m_session);
    QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty() && !panel.isBusy(), 30'000);
    QVERIFY(panel.listedPaths().contains(u"etc-link"_s));
    // Shown as a link with its target.
    QTreeWidgetItemIterator it(panel.tree());
    bool shown = false;
    for (; *it; ++it)
        shown = shown || (*it)->text(0) == u"etc-link → /etc"_s;
    QVERIFY(shown);
    panel.selectPaths({u"etc-link"_s});
    QSignalSpy transferred(&panel, &SessionFilesPanel::transferFinished);
    QTemporaryDir out;
    panel.downloadSelectedTo(out.path());
    QTRY_COMPARE_WITH_TIMEOUT(transferred.size(), 1, 30'000);
    QCOMPARE(transferred.first().at(0).toBool(), false);
    QVERIFY2(panel.statusText().contains(u"'etc-link' leads outside the work directory (a link "
                                         "to /etc)"_s),
             qPrintable(panel.statusText()));
    QVERIFY(QDir(out.path()).isEmpty());
    // Uploading into it is refused the same way.
    QTemporaryDir local;
    QVERIFY(writeFile(local.filePath(u"x.txt"_s), "x"));
    transferred.clear();
    panel.uploadLocalPaths({local.filePath(u"x.txt"_s)}, u"etc-link"_s);
    QTRY_COMPARE_WITH_TIMEOUT(transferred.size(), 1, 30'000);
    QCOMPARE(transferred.first().at(0).toBool(), false);
    QVERIFY2(panel.statusText().contains(u"leads outside the work directory"_s),
             qPrintable(panel.statusText()));
}

void TestSessionFiles::windowHooks()
{
    MainWindow window(m_engine);
    QVERIFY(window.filesDock() && window.filesDock()->isAncestorOf(window.filesPanel()));
    QVERIFY(window.imagesDock() && window.imagesDock()->isAncestorOf(window.imageManager()));
    // No session yet: saving a template says how to get one.
    QSignalSpy saved(&window, &MainWindow::templateSaved);
    window.saveSessionAsTemplate(u"x/y:1"_s);
    QCOMPARE(saved.size(), 1);
    QCOMPARE(saved.first().at(0).toBool(), false);

    // A notebook cell starts a session; the files dock follows it.
    window.setNotebookMode(true);
    NotebookConsole *notebook = window.notebook();
    NotebookCell *cell = notebook->cell(0) ? notebook->cell(0) : notebook->insertCell();
    cell->setSource(u"open('kept.txt', 'w').write('kept by the template')"_s);
    QSignalSpy finished(notebook, &NotebookConsole::cellFinished);
    notebook->runCell(cell);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60'000);
    QVERIFY(finished.first().at(1).toBool());
    QTRY_VERIFY_WITH_TIMEOUT(window.filesPanel()->session() == notebook->session(), 10'000);
    QTRY_VERIFY_WITH_TIMEOUT(window.filesPanel()->listedPaths().contains(u"kept.txt"_s), 30'000);

    // Save it as a template: the Images dock lists it.
    m_template = u"sandbox-studio-test/gui-template-%1:1"_s.arg(::getpid());
    window.saveSessionAsTemplate(m_template);
    QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 2, 120'000);
    QVERIFY2(saved.last().at(0).toBool(), qPrintable(saved.last().at(1).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(window.imageManager()->imageRefs().contains(m_template), 30'000);
    QCOMPARE(window.imageManager()->kindOf(m_template), u"template"_s);

    // The image field reaches the notebook: its next session starts from the template.
    window.imagePicker()->setCurrentText(m_template);
    QCOMPARE(window.customImage(), m_template);
    QCOMPARE(notebook->image(), m_template);
    QVERIFY(!notebook->hasSession()); // the old kernel was closed
    cell->setSource(u"print(open('kept.txt').read())"_s);
    finished.clear();
    notebook->runCell(cell);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60'000);
    QVERIFY(finished.first().at(1).toBool());
    QVERIFY(notebook->session());
    QCOMPARE(notebook->session()->image(), m_template);
    auto check = notebook->session()->execute(u"open('kept.txt').read()"_s);
    QVERIFY_RESULT(check);
    QCOMPARE(check->resultText(), u"'kept by the template'"_s);
}

void TestSessionFiles::cleanupTestCase()
{
    m_session.reset();
    if (!m_engine || m_template.isEmpty())
        return;
    // The window's notebook closes its sandbox in the background: until it is gone the
    // engine refuses to remove the image it runs.
    Result<void> removed;
    for (int i = 0; i < 60; ++i) {
        removed = m_engine->runtime().removeImage(m_template);
        if (removed)
            break;
        QTest::qWait(500);
    }
    QVERIFY2(removed, qPrintable(removed ? QString() : removed.error().toString()));
}

QTEST_MAIN(TestSessionFiles)
#include "tst_sessionfiles.moc"
