// SPDX-License-Identifier: GPL-3.0-or-later
// Pure units of the engine: stream framing, tar safety, endpoints, languages, recipes.
#include "images/imagebuilder.h"
#include "images/imagerecipe.h"
#include "languages/language.h"
#include "runtime/dockerstream.h"
#include "session/runresultjson.h"
#include "transport/endpoint.h"
#include "util/tarball.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

using namespace sandbox;

class TestUnits final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void demuxSplitsFramesAcrossReads();
    void demuxDetectsTruncatedFrame();
    void demuxRejectsUnframedStream();
    void safePaths_data();
    void safePaths();
    void tarRoundTripRefusesLinksAndEscapes();
    void endpoints();
    void languageFileNames();
    void recipesHaveStableTags();
    void recipeFilesAndRunSteps();
    void packedImagesHaveNoSparseEntries();
};

static QByteArray frame(char type, const QByteArray &payload)
{
    QByteArray h(8, '\0');
    h[0] = type;
    const quint32 n = quint32(payload.size());
    h[4] = char(n >> 24);
    h[5] = char(n >> 16);
    h[6] = char(n >> 8);
    h[7] = char(n);
    return h + payload;
}

void TestUnits::demuxSplitsFramesAcrossReads()
{
    const QByteArray stream = frame(1, "hello ") + frame(2, "oops") + frame(0, "world");
    QByteArray out, err;
    FrameDemuxer d([&](FrameDemuxer::Stream s, QByteArrayView data) {
        (s == FrameDemuxer::Stream::Stderr ? err : out) += data;
        return true;
    });
    for (char c : stream) // one byte at a time: the worst split
        QVERIFY(d.feed(QByteArrayView(&c, 1)));
    QCOMPARE(out, QByteArray("hello world"));
    QCOMPARE(err, QByteArray("oops"));
    QVERIFY(!d.truncated());
}

void TestUnits::demuxDetectsTruncatedFrame()
{
    const QByteArray stream = frame(1, "complete") + frame(1, "cut short").left(12);
    FrameDemuxer d([](FrameDemuxer::Stream, QByteArrayView) { return true; });
    QVERIFY(d.feed(stream));
    QVERIFY(d.truncated());
}

void TestUnits::demuxRejectsUnframedStream()
{
    FrameDemuxer d([](FrameDemuxer::Stream, QByteArrayView) { return true; });
    QVERIFY(!d.feed("plain text, not frames"));
    QVERIFY(d.malformed());
}

void TestUnits::safePaths_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected"); // empty = refused
    QTest::newRow("plain") << QStringLiteral("a.txt") << QStringLiteral("a.txt");
    QTest::newRow("dot") << QStringLiteral("./out//b.png") << QStringLiteral("out/b.png");
    QTest::newRow("absolute") << QStringLiteral("/etc/passwd") << QString();
    QTest::newRow("dotdot") << QStringLiteral("../../escape") << QString();
    QTest::newRow("inner dotdot") << QStringLiteral("a/../../b") << QString();
    QTest::newRow("empty") << QString() << QString();
    QTest::newRow("only dot") << QStringLiteral("./") << QString();
}

void TestUnits::safePaths()
{
    QFETCH(QString, path);
    QFETCH(QString, expected);
    auto r = safeRelativePath(path);
    if (expected.isEmpty()) {
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::PathRefused);
    } else {
        QVERIFY(r);
        QCOMPARE(*r, expected);
    }
}

void TestUnits::tarRoundTripRefusesLinksAndEscapes()
{
    auto tar = makeTar({{QStringLiteral("dir"), TarMember::Type::Directory, {}, 0755, {}},
                        {QStringLiteral("dir/a.txt"), TarMember::Type::File, "alpha", 0644, {}},
                        {QStringLiteral("passwd"),
                         TarMember::Type::Symlink,
                         {},
                         0777,
                         QStringLiteral("/etc/passwd")}});
    QVERIFY(tar);
    QStringList refused;
    bool truncated = false;
    auto members = readTar(*tar, {}, &refused, &truncated);
    QVERIFY(members);
    QCOMPARE(members->size(), 1);
    QCOMPARE(members->at(0).path, QStringLiteral("dir/a.txt"));
    QCOMPARE(members->at(0).data, QByteArray("alpha"));
    QCOMPARE(refused.size(), 1);
    QVERIFY(refused[0].contains(QStringLiteral("symbolic link")));
    QVERIFY(!truncated);

    // makeTar refuses unsafe member names outright.
    QVERIFY(!makeTar({{QStringLiteral("../x"), TarMember::Type::File, "x", 0644, {}}}));

    // Limits: count and bytes.
    QList<TarMember> many;
    for (int i = 0; i < 10; ++i)
        many.append(
            {QStringLiteral("f%1").arg(i), TarMember::Type::File, QByteArray(100, 'x'), 0644, {}});
    auto big = makeTar(many);
    QVERIFY(big);
    TarReadLimits lim;
    lim.maxMembers = 3;
    refused.clear();
    members = readTar(*big, lim, &refused, &truncated);
    QVERIFY(members);
    QCOMPARE(members->size(), 3);
    QVERIFY(truncated);
}

void TestUnits::endpoints()
{
    auto unix = Endpoint::fromUri(QStringLiteral("unix:///run/podman/podman.sock"));
    QVERIFY(unix);
    QCOMPARE(unix->unixSocket, QStringLiteral("/run/podman/podman.sock"));
    // A DOCKER_CERT_PATH-style folder: the files it has are used (here only ca.pem).
    QTemporaryDir certs;
    QFile ca(certs.filePath(QStringLiteral("ca.pem")));
    QVERIFY(ca.open(QIODevice::WriteOnly));
    ca.close();
    auto tls = Endpoint::fromUri(QStringLiteral("tcp://127.0.0.1:2376"), certs.path());
    QVERIFY(tls);
    QVERIFY(tls->isTls());
    QCOMPARE(tls->baseUrl, QStringLiteral("https://127.0.0.1:2376"));
    QCOMPARE(tls->caFile, ca.fileName());
    QVERIFY(tls->certFile.isEmpty());
    QVERIFY(
        !Endpoint::fromUri(QStringLiteral("tcp://127.0.0.1:2376"), QStringLiteral("/nonexistent")));
    QCOMPARE(tls->display(), QStringLiteral("tcp://127.0.0.1:2376"));
    QVERIFY(!Endpoint::fromUri(QStringLiteral("ftp://x")));
}

void TestUnits::languageFileNames()
{
    const auto &reg = LanguageRegistry::instance();
    QCOMPARE(reg.all().size(), 6);
    QVERIFY(reg.find(QStringLiteral("PY")));
    QVERIFY(!reg.find(QStringLiteral("cobol")));
    const auto *java = reg.find(QStringLiteral("java"));
    QCOMPARE(java->fileNameFor(QStringLiteral("package a.b;\npublic final class FizzBuzz {}")),
             QStringLiteral("FizzBuzz.java"));
    const auto *js = reg.find(QStringLiteral("js"));
    QCOMPARE(js->fileNameFor(QStringLiteral("import fs from 'node:fs';")),
             QStringLiteral("main.mjs"));
    QCOMPARE(js->fileNameFor(QStringLiteral("const fs = require('fs');")),
             QStringLiteral("main.js"));
}

void TestUnits::recipesHaveStableTags()
{
    auto a = ImageCatalog::parse(R"({"name":"x","suite":"trixie","packages":["python3"]})");
    auto b = ImageCatalog::parse(R"({"name":"x","suite":"trixie","packages":["python3","pip"]})");
    QVERIFY(a && b);
    QCOMPARE(a->tag(),
             ImageCatalog::parse(R"({"name":"x","suite":"trixie","packages":["python3"]})")->tag());
    QVERIFY(a->tag() != b->tag());
    QVERIFY(ImageCatalog::instance().find(QStringLiteral("python")));
    QVERIFY(!ImageCatalog::parse("{}"));
}

void TestUnits::packedImagesHaveNoSparseEntries()
{
    // A sparse file (a hole, then data: what Go's telemetry counters look like) is packed
    // as a plain entry of its full size, which a saved image reproduces byte for byte.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir().mkpath(dir.filePath(QStringLiteral("root/etc")));
    const QByteArray sparseName =
        QFile::encodeName(dir.filePath(QStringLiteral("root/etc/counts")));
    const int fd = ::open(sparseName.constData(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
    QVERIFY(fd >= 0);
    QCOMPARE(::pwrite(fd, "tail", 4, (1 << 20) - 4), ssize_t(4));
    ::close(fd);
    const QString tarFile = dir.filePath(QStringLiteral("root.tar"));
    auto packed = packDirectory(dir.filePath(QStringLiteral("root")), tarFile, {});
    QVERIFY2(packed, packed ? "" : qPrintable(packed.error().toString()));

    archive *a = archive_read_new();
    auto cleanup = qScopeGuard([&] { archive_read_free(a); });
    archive_read_support_format_tar(a);
    QCOMPARE(archive_read_open_filename(a, QFile::encodeName(tarFile).constData(), 1 << 16),
             ARCHIVE_OK);
    archive_entry *e = nullptr;
    bool found = false;
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
        if (QByteArray(archive_entry_pathname(e)) != "./etc/counts")
            continue;
        found = true;
        QCOMPARE(archive_entry_sparse_count(e), 0);
        QCOMPARE(archive_entry_size(e), la_int64_t(1 << 20));
        QByteArray data(1 << 20, Qt::Uninitialized);
        QCOMPARE(archive_read_data(a, data.data(), size_t(data.size())), la_ssize_t(1 << 20));
        QVERIFY(data.endsWith("tail"));
        QCOMPARE(data.count('\0'), qsizetype((1 << 20) - 4));
    }
    QVERIFY2(found, "etc/counts is not in the packed tar");
}

void TestUnits::recipeFilesAndRunSteps()
{
    // The Go recipe bakes its cache program's source in and prebuilds the standard library.
    const ImageRecipe *go = ImageCatalog::instance().find(QStringLiteral("go"));
    QVERIFY(go);
    QCOMPARE(go->files.size(), 1);
    QCOMPARE(go->files[0].path, QStringLiteral("/usr/lib/sandbox-studio/go/gocacheprog.go"));
    QCOMPARE(go->files[0].mode, 0644);
    QVERIFY(go->files[0].data.contains("package main"));
    // The helper's source is hashed into the tag, not only the recipe's JSON.
    QVERIFY(go->canonical.contains(go->files[0].data));
    QVERIFY(!go->run.filter(QStringLiteral("go build std")).isEmpty());
    QVERIFY(!go->changes.filter(QStringLiteral("GOCACHEPROG=")).isEmpty());

    const QByteArray base = R"({"name":"x","suite":"trixie","packages":["golang-go"])";
    auto plain = ImageCatalog::parse(base + "}");
    auto withRun = ImageCatalog::parse(base + R"(,"run":["go build std"]})");
    auto withFile = ImageCatalog::parse(
        base +
        R"(,"files":[{"path":"/opt/p.go","resource":"images/go/gocacheprog.go","mode":"0755"}]})");
    QVERIFY(plain);
    QVERIFY(withRun);
    QVERIFY2(withFile, withFile ? "" : qPrintable(withFile.error().toString()));
    QCOMPARE(withRun->run, QStringList{QStringLiteral("go build std")});
    QCOMPARE(withFile->files.value(0).mode, 0755);
    QVERIFY(plain->tag() != withRun->tag());
    QVERIFY(plain->tag() != withFile->tag());

    // Bad file entries are refused with the reason.
    auto missing = ImageCatalog::parse(
        base + R"(,"files":[{"path":"/opt/p.go","resource":"images/go/nosuch.go"}]})");
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.contains(QStringLiteral("images/go/nosuch.go")),
             qPrintable(missing.error().toString()));
    auto relative = ImageCatalog::parse(
        base + R"(,"files":[{"path":"opt/p.go","resource":"images/go/gocacheprog.go"}]})");
    QVERIFY(!relative);
    QVERIFY(relative.error().message.contains(QStringLiteral("absolute")));
    auto badMode = ImageCatalog::parse(
        base +
        R"(,"files":[{"path":"/opt/p.go","resource":"images/go/gocacheprog.go","mode":"9"}]})");
    QVERIFY(!badMode);
    QVERIFY(badMode.error().message.contains(QStringLiteral("octal")));
}

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
