// SPDX-License-Identifier: GPL-3.0-or-later
// Files in and out of sandboxes: the tar guards (absolute paths, "..", links that leave the
// target, tar-slip) as units, then uploads and downloads of a real notebook session over
// both transports (agent and plain exec) on a hardened sandbox (read-only root, tmpfs work
// directory), size caps, and RunRequest::fetchPaths of one-shot runs.
#include "session/notebook.h"
#include "testsupport.h"
#include "util/tarball.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

using namespace sandbox;

namespace {

/// A raw tar written without our guards: what a hostile client could send.
struct RawMember
{
    QByteArray path;
    char type = 'f'; ///< f file, d dir, l symlink, h hard link
    QByteArray data; ///< file contents, or the link target
};

QByteArray rawTar(const QList<RawMember> &members)
{
    QByteArray out;
    archive *a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    archive_write_open(
        a, &out, nullptr,
        [](archive *, void *c, const void *b, size_t n) -> la_ssize_t {
            static_cast<QByteArray *>(c)->append(static_cast<const char *>(b), qsizetype(n));
            return la_ssize_t(n);
        },
        nullptr);
    for (const RawMember &m : members) {
        archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, m.path.constData());
        archive_entry_set_perm(e, 0644);
        switch (m.type) {
        case 'd':
            archive_entry_set_filetype(e, AE_IFDIR);
            break;
        case 'l':
            archive_entry_set_filetype(e, AE_IFLNK);
            archive_entry_set_symlink(e, m.data.constData());
            break;
        case 'h':
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_hardlink(e, m.data.constData());
            break;
        default:
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_size(e, m.data.size());
        }
        archive_write_header(a, e);
        if (m.type == 'f')
            archive_write_data(a, m.data.constData(), size_t(m.data.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    return out;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

} // namespace

Q_DECLARE_METATYPE(RawMember)

class TestFiles final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    // Units: no engine.
    void linkStaysInside_data();
    void linkStaysInside();
    void tarSlipIsRefused_data();
    void tarSlipIsRefused();
    void tarChecksSizes();
    void localFolderLinksLeavingAreRefused();
    void extractRefusesEscapes();
    // A real session, over the agent and over plain exec.
    void uploadAndDownload_data();
    void uploadAndDownload();
    void escapesAreRefusedInTheSandbox_data();
    void escapesAreRefusedInTheSandbox();
    void sizesAreCapped();
    // One-shot runs.
    void oneShotFilesAndFetch();
    void cleanupTestCase();

private:
    std::shared_ptr<NotebookSession> session(const QString &transport);
    std::shared_ptr<Engine> m_engine;
    std::shared_ptr<NotebookSession> m_agentSession;
    std::shared_ptr<NotebookSession> m_execSession;
};

void TestFiles::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("SANDBOX_AGENT_PATH"))
        qputenv("SANDBOX_AGENT_PATH", QByteArray(SANDBOX_AGENT_BINARY));
}

std::shared_ptr<NotebookSession> TestFiles::session(const QString &transport)
{
    if (!m_engine)
        m_engine = test::requireEngine();
    if (!m_engine)
        return nullptr;
    auto &slot = transport == QLatin1String("agent") ? m_agentSession : m_execSession;
    if (slot)
        return slot;
    const QByteArray saved = qgetenv("SANDBOX_AGENT_PATH");
    if (transport == QLatin1String("exec"))
        qputenv("SANDBOX_AGENT_PATH", "/nonexistent/sandbox-agent");
    auto s = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("python"));
    qputenv("SANDBOX_AGENT_PATH", saved);
    if (!s) {
        qWarning("%s", qPrintable(s.error().toString()));
        return nullptr;
    }
    if ((*s)->transport() != transport) {
        qWarning("wanted transport %s, got %s (%s)", qPrintable(transport),
                 qPrintable((*s)->transport()), qPrintable((*s)->transportNote()));
        return nullptr;
    }
    slot = *s;
    return slot;
}

void TestFiles::linkStaysInside_data()
{
    QTest::addColumn<QString>("link");
    QTest::addColumn<QString>("target");
    QTest::addColumn<bool>("inside");
    QTest::newRow("sibling") << "a/b" << "c" << true;
    QTest::newRow("up-one-from-subdir") << "a/b" << "../c" << true;
    QTest::newRow("absolute") << "a" << "/etc/passwd" << false;
    QTest::newRow("climbs-out") << "a" << "../x" << false;
    QTest::newRow("climbs-out-deep") << "a/b/c" << "../../../x" << false;
    QTest::newRow("down-then-out") << "a" << "b/../../x" << false;
    QTest::newRow("empty") << "a" << "" << false;
}

void TestFiles::linkStaysInside()
{
    QFETCH(QString, link);
    QFETCH(QString, target);
    QFETCH(bool, inside);
    QCOMPARE(sandbox::linkStaysInside(link, target), inside);
}

void TestFiles::tarSlipIsRefused_data()
{
    QTest::addColumn<QList<RawMember>>("members");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("absolute") << QList<RawMember>{{"/etc/cron.d/x", 'f', "boom"}} << "is absolute";
    QTest::newRow("dotdot") << QList<RawMember>{{"a/../../x", 'f', "boom"}} << "'..'";
    QTest::newRow("symlink-out") << QList<RawMember>{{"etc", 'l', "/etc"}, {"etc/passwd", 'f', "x"}}
                                 << "symbolic link to '/etc' leaves";
    QTest::newRow("symlink-relative-out")
        << QList<RawMember>{{"d", 'd', {}}, {"d/up", 'l', "../../.."}} << "leaves";
    QTest::newRow("hardlink-out") << QList<RawMember>{{"h", 'h', "../outside"}} << "hard link";
    QTest::newRow("hardlink-absolute")
        << QList<RawMember>{{"h", 'h', "/etc/shadow"}} << "hard link";
}

void TestFiles::tarSlipIsRefused()
{
    QFETCH(QList<RawMember>, members);
    QFETCH(QString, mentions);
    auto r = checkTarForExtraction(rawTar(members), 1 << 20);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::PathRefused);
    QVERIFY2(r.error().message.contains(mentions), qPrintable(r.error().message));
    // A link that stays inside is fine.
    auto ok = checkTarForExtraction(
        rawTar({{"d", 'd', {}}, {"d/f", 'f', "x"}, {"d/l", 'l', "f"}, {"top", 'l', "d/f"}}), 100);
    QVERIFY_RESULT(ok);
    QCOMPARE(*ok, (QStringList{"d", "d/f", "d/l", "top"}));
}

void TestFiles::tarChecksSizes()
{
    auto big = checkTarForExtraction(rawTar({{"a", 'f', QByteArray(2000, 'x')}}), 1000);
    QVERIFY(!big);
    QCOMPARE(big.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(big.error().message.contains("limit"), qPrintable(big.error().message));
    auto many =
        checkTarForExtraction(rawTar({{"a", 'f', "1"}, {"b", 'f', "2"}, {"c", 'f', "3"}}), 1000, 2);
    QVERIFY(!many);
    QVERIFY2(many.error().message.contains("Too many"), qPrintable(many.error().message));
}

void TestFiles::localFolderLinksLeavingAreRefused()
{
    QTemporaryDir tmp;
    QDir d(tmp.path());
    QVERIFY(d.mkpath("proj/sub"));
    QFile f(d.filePath("proj/sub/data.txt"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("hello");
    f.close();
    QVERIFY(QFile::link("sub/data.txt", d.filePath("proj/inside")));
    auto ok = collectLocalPath(d.filePath("proj"), QStringLiteral("in"));
    QVERIFY_RESULT(ok);
    QStringList paths;
    for (const TarMember &m : *ok)
        paths << m.path;
    paths.sort();
    QCOMPARE(paths,
             (QStringList{"in/proj", "in/proj/inside", "in/proj/sub", "in/proj/sub/data.txt"}));
    QVERIFY(QFile::link("/etc/passwd", d.filePath("proj/escape")));
    auto refused = collectLocalPath(d.filePath("proj"), {});
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, ErrorCode::PathRefused);
    QVERIFY2(refused.error().message.contains("/etc/passwd"), qPrintable(refused.error().message));
    auto badPrefix = collectLocalPath(d.filePath("proj/sub/data.txt"), QStringLiteral("../up"));
    QVERIFY(!badPrefix);
    QCOMPARE(badPrefix.error().code, ErrorCode::PathRefused);
}

void TestFiles::extractRefusesEscapes()
{
    QTemporaryDir tmp, outside;
    const QString dest = tmp.filePath("dest");
    QVERIFY(QDir().mkpath(dest));
    // A link planted in the destination that leads elsewhere: writing through it is refused.
    QVERIFY(QFile::link(outside.path(), dest + "/planted"));
    const QByteArray tar = rawTar({{"ok/file.txt", 'f', "fine"},
                                   {"/abs.txt", 'f', "no"},
                                   {"../up.txt", 'f', "no"},
                                   {"link-out", 'l', "/etc/passwd"},
                                   {"link-in", 'l', "ok/file.txt"},
                                   {"planted/evil.txt", 'f', "no"},
                                   {"hard", 'h', "ok/file.txt"}});
    QStringList refused;
    auto written = extractTarToDirectory(tar, dest, {}, &refused);
    QVERIFY_RESULT(written);
    QCOMPARE(*written, (QStringList{"ok/file.txt", "link-in"}));
    QCOMPARE(readFile(dest + "/ok/file.txt"), QByteArray("fine"));
    QCOMPARE(readFile(dest + "/link-in"), QByteArray("fine"));
    QVERIFY(!QFileInfo::exists(tmp.filePath("up.txt")));
    QVERIFY(!QFileInfo::exists(outside.filePath("evil.txt")));
    QVERIFY(!QFileInfo(dest + "/link-out").isSymLink());
    const QString all = refused.join('\n');
    QCOMPARE(refused.size(), 5);
    QVERIFY2(all.contains("/abs.txt: '/abs.txt' is absolute"), qPrintable(all));
    QVERIFY2(all.contains("'..'"), qPrintable(all));
    QVERIFY2(all.contains("link-out: symbolic link to '/etc/passwd' leaves"), qPrintable(all));
    QVERIFY2(all.contains("planted/evil.txt: its folder leaves"), qPrintable(all));
    QVERIFY2(all.contains("hard: hard link"), qPrintable(all));
}

void TestFiles::uploadAndDownload_data()
{
    QTest::addColumn<QString>("transport");
    QTest::newRow("agent") << "agent";
    QTest::newRow("exec") << "exec";
}

void TestFiles::uploadAndDownload()
{
    QFETCH(QString, transport);
    auto s = session(transport);
    QVERIFY(s);
    // A local folder with a nested file and a link inside, plus one in-memory file.
    QTemporaryDir tmp;
    QDir d(tmp.path());
    QVERIFY(d.mkpath("dataset/raw"));
    QFile f(d.filePath("dataset/raw/orders.csv"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("id,amount\n1,10\n2,32\n");
    f.close();
    QVERIFY(QFile::link("raw/orders.csv", d.filePath("dataset/latest.csv")));
    const QString dest = transport + "-in";
    auto up = s->uploadPath(d.filePath("dataset"), dest);
    QVERIFY_RESULT(up);
    QVERIFY2(up->contains(dest + "/dataset/raw/orders.csv"), qPrintable(up->join(',')));
    auto up2 = s->uploadFiles(
        {{QStringLiteral("notes/readme.txt"), TarMember::Type::File, "read me", 0644, {}}}, dest);
    QVERIFY_RESULT(up2);

    // The kernel sees them (the work directory is a tmpfs on a read-only root).
    auto cell = s->execute(
        QStringLiteral(
            "import csv, os\n"
            "rows = list(csv.DictReader(open('%1/dataset/latest.csv')))\n"
            "open('%1/result.txt', 'w').write(str(sum(int(r['amount']) for r in rows)))\n"
            "os.makedirs('%1/out/deep', exist_ok=True)\n"
            "open('%1/out/deep/x.bin', 'wb').write(bytes(range(256)))\n"
            "print(open('%1/notes/readme.txt').read(), os.path.islink('%1/dataset/latest.csv'))\n")
            .arg(dest));
    QVERIFY_RESULT(cell);
    QVERIFY2(cell->ok(), qPrintable(cell->streamText("stderr")));
    QCOMPARE(cell->streamText("stdout").trimmed(), QStringLiteral("read me True"));

    auto listing = s->listFiles(dest);
    QVERIFY_RESULT(listing);
    QStringList names;
    for (const SessionFile &e : *listing)
        names << e.path + (e.isDir ? "/" : "");
    QCOMPARE(names, (QStringList{dest + "/dataset/", dest + "/notes/", dest + "/out/",
                                 dest + "/result.txt"}));
    auto recursive = s->listFiles(dest, true);
    QVERIFY_RESULT(recursive);
    bool sawLink = false;
    for (const SessionFile &e : *recursive)
        if (e.path == dest + "/dataset/latest.csv") {
            sawLink = e.isLink && e.linkTarget == "raw/orders.csv";
        }
    QVERIFY(sawLink);

    // Back out: one file in memory, a folder to disk (the link inside stays a link).
    QStringList refused;
    auto files = s->downloadFiles({dest + "/result.txt"}, {}, &refused);
    QVERIFY_RESULT(files);
    QCOMPARE(files->size(), 1);
    QCOMPARE(files->first().path, dest + "/result.txt");
    QCOMPARE(files->first().data, QByteArray("42"));
    QTemporaryDir local;
    auto written = s->downloadTo({dest + "/out", dest + "/dataset"}, local.path(), {}, &refused);
    QVERIFY_RESULT(written);
    QVERIFY2(refused.isEmpty(), qPrintable(refused.join('\n')));
    QByteArray expected;
    for (int i = 0; i < 256; ++i)
        expected.append(char(i));
    QCOMPARE(readFile(local.filePath(dest + "/out/deep/x.bin")), expected);
    QVERIFY(QFileInfo(local.filePath(dest + "/dataset/latest.csv")).isSymLink());
    QCOMPARE(readFile(local.filePath(dest + "/dataset/latest.csv")),
             QByteArray("id,amount\n1,10\n2,32\n"));
    // Missing paths say so.
    auto missing = s->downloadFiles({QStringLiteral("no/such/file")});
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, ErrorCode::NotFound);
    QVERIFY2(missing.error().message.contains("'no/such/file' does not exist"),
             qPrintable(missing.error().message));
}

void TestFiles::escapesAreRefusedInTheSandbox_data()
{
    uploadAndDownload_data();
}

void TestFiles::escapesAreRefusedInTheSandbox()
{
    QFETCH(QString, transport);
    auto s = session(transport);
    QVERIFY(s);
    const QString base = transport + "-esc";
    // Code in the sandbox plants links that lead out of the work directory.
    auto cell = s->execute(QStringLiteral("import os\n"
                                          "os.makedirs('%1/dir', exist_ok=True)\n"
                                          "os.symlink('/tmp', '%1/tmplink')\n"
                                          "os.symlink('/etc/passwd', '%1/dir/passwd')\n"
                                          "open('/tmp/secret.txt', 'w').write('s')\n"
                                          "open('%1/dir/ok.txt', 'w').write('ok')\n")
                               .arg(base));
    QVERIFY_RESULT(cell);
    QVERIFY2(cell->ok(), qPrintable(cell->streamText("stderr")));

    auto expectRefused = [](const auto &r, const QString &mentions) {
        if (r) {
            QTest::qFail("expected a refusal", __FILE__, __LINE__);
            return false;
        }
        if (r.error().code != ErrorCode::PathRefused || !r.error().message.contains(mentions)) {
            QTest::qFail(
                qPrintable("wrong refusal: " + r.error().toString() + " (wanted " + mentions + ")"),
                __FILE__, __LINE__);
            return false;
        }
        return true;
    };
    const QList<TarMember> one{{QStringLiteral("x.txt"), TarMember::Type::File, "x", 0644, {}}};
    // Upload: absolute, "..", through a planted link, and a tar-slip archive.
    QVERIFY(expectRefused(s->uploadFiles(one, QStringLiteral("/etc")), "is absolute"));
    QVERIFY(expectRefused(s->uploadFiles(one, base + "/../.."), "'..'"));
    QVERIFY(expectRefused(
        s->uploadFiles({{QStringLiteral("../x.txt"), TarMember::Type::File, "x", 0644, {}}}),
        "'..'"));
    QVERIFY(expectRefused(s->uploadFiles(one, base + "/tmplink"), "leads outside"));
    QVERIFY(expectRefused(
        s->uploadFiles({{QStringLiteral("tmplink/x.txt"), TarMember::Type::File, "x", 0644, {}}},
                       base),
        "(a link to /tmp)"));
    QVERIFY(expectRefused(s->uploadTar(rawTar({{"a", 'l', "/tmp"}, {"a/pwn.txt", 'f', "x"}}), base),
                          "symbolic link to '/tmp' leaves"));
    QVERIFY(expectRefused(s->uploadTar(rawTar({{"../../tmp/pwn.txt", 'f', "x"}}), base), "'..'"));
    QVERIFY(expectRefused(s->uploadTar(rawTar({{"/tmp/pwn.txt", 'f', "x"}}), base), "absolute"));
    QVERIFY(expectRefused(s->uploadFiles({{QStringLiteral("l"),
                                           TarMember::Type::Symlink,
                                           {},
                                           0777,
                                           QStringLiteral("../../etc")}},
                                         base),
                          "leaves"));
    // Nothing reached /tmp.
    auto check = s->execute(QStringLiteral("import os; print(sorted(os.listdir('/tmp')))"));
    QVERIFY_RESULT(check);
    QVERIFY2(!check->streamText("stdout").contains("pwn") &&
                 !check->streamText("stdout").contains("x.txt"),
             qPrintable(check->streamText("stdout")));

    // Download: absolute, "..", a link leading out, a path through such a link.
    QVERIFY(expectRefused(s->downloadFiles({QStringLiteral("/etc/passwd")}), "is absolute"));
    QVERIFY(expectRefused(s->downloadFiles({base + "/../../etc/passwd"}), "'..'"));
    QVERIFY(expectRefused(s->downloadFiles({base + "/dir/passwd"}), "(a link to /etc/passwd)"));
    QVERIFY(expectRefused(s->downloadFiles({base + "/tmplink/secret.txt"}), "leads outside"));
    QVERIFY(expectRefused(s->downloadFiles({base + "/tmplink"}), "leads outside"));
    // A folder holding such a link: the link is listed, not followed.
    QStringList refused;
    QTemporaryDir local;
    auto written = s->downloadTo({base + "/dir"}, local.path(), {}, &refused);
    QVERIFY_RESULT(written);
    QCOMPARE(*written, (QStringList{base + "/dir/ok.txt"}));
    QVERIFY2(refused.join('\n').contains(base + "/dir/passwd: symbolic link to '/etc/passwd' "
                                                "leaves the destination; not followed"),
             qPrintable(refused.join('\n')));
    QVERIFY(!QFileInfo::exists(local.filePath(base + "/dir/passwd")));
    // The listing shows the links as links.
    auto listing = s->listFiles(base);
    QVERIFY_RESULT(listing);
    bool linkShown = false;
    for (const SessionFile &e : *listing)
        if (e.path == base + "/tmplink")
            linkShown = e.isLink && e.linkTarget == "/tmp";
    QVERIFY(linkShown);
    QVERIFY(expectRefused(s->listFiles(base + "/tmplink"), "leads outside"));
}

void TestFiles::sizesAreCapped()
{
    auto s = session(QStringLiteral("agent"));
    QVERIFY(s);
    TransferLimits small;
    small.maxBytes = 1 << 20;
    auto up = s->uploadFiles(
        {{QStringLiteral("big.bin"), TarMember::Type::File, QByteArray(2 << 20, 'x'), 0644, {}}},
        {}, small);
    QVERIFY(!up);
    QCOMPARE(up.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(up.error().message.contains("limit of 1.0 MiB"), qPrintable(up.error().message));
    auto cell = s->execute(QStringLiteral("open('big-out.bin','wb').write(b'y' * (3 << 20))"));
    QVERIFY_RESULT(cell);
    auto down = s->downloadFiles({QStringLiteral("big-out.bin")}, small);
    QVERIFY(!down);
    QCOMPARE(down.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(down.error().message.contains("larger than the limit"),
             qPrintable(down.error().message));
    // Within the default cap it comes back whole.
    auto ok = s->downloadFiles({QStringLiteral("big-out.bin")});
    QVERIFY_RESULT(ok);
    QCOMPARE(ok->first().data.size(), 3 << 20);
    // A full work directory (tmpfs size) is the engine's clear error, not a silent loss.
    Limits tiny;
    tiny.workDirBytes = 2 << 20;
    auto t = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("python"), tiny);
    QVERIFY_RESULT(t);
    auto full = (*t)->uploadFiles(
        {{QStringLiteral("fill.bin"), TarMember::Type::File, QByteArray(3 << 20, 'z'), 0644, {}}});
    QVERIFY(!full);
    QCOMPARE(full.error().code, ErrorCode::IoError);
    QVERIFY2(full.error().message.contains("the work directory is full (it holds 2 MiB)"),
             qPrintable(full.error().toString()));
}

void TestFiles::oneShotFilesAndFetch()
{
    if (!m_engine)
        m_engine = test::requireEngine();
    QVERIFY(m_engine);
    RunRequest req;
    req.language = QStringLiteral("python");
    req.files = {{QStringLiteral("in/a.txt"), "alpha"}, {QStringLiteral("in/b/c.txt"), "gamma"}};
    req.code = QStringLiteral("import os\n"
                              "os.makedirs('results/sub', exist_ok=True)\n"
                              "open('results/sum.txt','w').write(open('in/a.txt').read() + "
                              "open('in/b/c.txt').read())\n"
                              "open('results/sub/n.txt','w').write('n')\n"
                              "os.symlink('/etc/passwd', 'passwd')\n"
                              "os.symlink('/etc', 'etc')\n");
    req.collectWorkDirFiles = false;
    req.fetchPaths = {QStringLiteral("results"),      QStringLiteral("in/a.txt"),
                      QStringLiteral("missing.txt"),  QStringLiteral("passwd"),
                      QStringLiteral("etc/hostname"), QStringLiteral("../outside")};
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QMap<QString, QByteArray> got;
    for (const Artifact &a : r->fetched)
        got.insert(a.name, a.data);
    QCOMPARE(got.keys(), (QStringList{"in/a.txt", "results/sub/n.txt", "results/sum.txt"}));
    QCOMPARE(got.value("results/sum.txt"), QByteArray("alphagamma"));
    const QString refused = r->refusedPaths.join('\n');
    QVERIFY2(refused.contains("missing.txt: no such file or folder"), qPrintable(refused));
    QVERIFY2(refused.contains("passwd: leads outside the work directory (to /etc/passwd)"),
             qPrintable(refused));
    QVERIFY2(refused.contains("etc/hostname: leads outside"), qPrintable(refused));
    QVERIFY2(refused.contains("../outside: '../outside' contains '..'"), qPrintable(refused));
}

void TestFiles::cleanupTestCase()
{
    m_agentSession.reset();
    m_execSession.reset();
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestFiles)
#include "tst_files.moc"
