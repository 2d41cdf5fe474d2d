// SPDX-License-Identifier: GPL-3.0-or-later
// Docker over mutual TLS against the TLS dockerd fixture (tests/fixtures/tls-dockerd on
// tcp://127.0.0.1:2376, certificates made by openssl for each run): a run works end to end
// (stdin EOF over TLS included), and a wrong CA, a foreign or missing client certificate,
// a plain-HTTP endpoint and a plain client each fail with a clear error naming the profile
// and the endpoint, leaving no sandbox behind.
#include "testsupport.h"

#include <QDir>
#include <QTest>
#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace sandbox;

namespace {

/// A plain-HTTP server on 127.0.0.1 that answers every connection with 200 "OK".
class PlainHttpServer
{
public:
    PlainHttpServer()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
        ::listen(m_fd, 8);
        socklen_t len = sizeof addr;
        ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] {
            while (!m_stop) {
                pollfd p{m_fd, POLLIN, 0};
                if (::poll(&p, 1, 100) <= 0)
                    continue;
                const int c = ::accept(m_fd, nullptr, nullptr);
                if (c < 0)
                    continue;
                char buf[4096];
                pollfd q{c, POLLIN, 0};
                if (::poll(&q, 1, 2000) > 0)
                    (void)::read(c, buf, sizeof buf);
                const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK";
                (void)::write(c, answer, sizeof answer - 1);
                ::close(c);
            }
        });
    }
    ~PlainHttpServer()
    {
        m_stop = true;
        m_thread.join();
        ::close(m_fd);
    }
    int port() const { return m_port; }

private:
    int m_fd = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

class TestTls final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void pingOverTls();
    void runOverTls();
    void dockerEnvironment();
    void failures_data();
    void failures();
    void plainClientToTlsServer();
    void cleanupTestCase();

private:
    std::shared_ptr<Engine> m_engine;
    QString m_certs;
};

void TestTls::initTestCase()
{
    QCOMPARE(test::backendUnderTest(), QStringLiteral("docker-tls"));
    m_certs = test::tlsFixtureCerts();
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
}

void TestTls::pingOverTls()
{
    auto info = m_engine->ping();
    QVERIFY_RESULT(info);
    QCOMPARE(info->name, QStringLiteral("Docker Engine"));
    QVERIFY(!info->isPodman);
    QCOMPARE(m_engine->runtime().endpointDisplay(), QStringLiteral("tcp://127.0.0.1:2376"));
    QCOMPARE(m_engine->runtime().backend(), QStringLiteral("docker-tls"));
}

void TestTls::runOverTls()
{
    // Files go in as a tar on an exec's stdin, which ends with TLS close_notify.
    RunRequest req;
    req.origin = RunOrigin::Test;
    req.language = QStringLiteral("python");
    req.code = QStringLiteral("print(open('in.txt').read().upper())\n"
                              "open('output/out.txt', 'w').write('back')\n");
    req.files.append({QStringLiteral("in.txt"), QByteArray("over tls")});
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QCOMPARE(r->stdoutData, QByteArray("OVER TLS\n"));
    bool found = false;
    for (const Artifact &a : r->artifacts)
        found |= a.name == QLatin1String("output/out.txt") && a.data == "back";
    QVERIFY(found);
}

void TestTls::dockerEnvironment()
{
    // The Docker client's conventions, read by the default profile.
    qputenv("DOCKER_HOST", "tcp://127.0.0.1:2376");
    qputenv("DOCKER_CERT_PATH", QFile::encodeName(m_certs + QStringLiteral("/client")));
    qputenv("DOCKER_TLS_VERIFY", "1");
    const BackendProfile p = BackendProfile::fromEnvironment();
    qunsetenv("DOCKER_HOST");
    qunsetenv("DOCKER_CERT_PATH");
    qunsetenv("DOCKER_TLS_VERIFY");
    QCOMPARE(p.kind, QStringLiteral("docker-tls"));
    QVERIFY(p.tlsVerify);
    auto engine = Engine::create(p);
    QVERIFY_RESULT(engine);
    auto info = (*engine)->ping();
    QVERIFY_RESULT(info);
    QCOMPARE(info->name, QStringLiteral("Docker Engine"));
}

void TestTls::failures_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("caFile");
    QTest::addColumn<QString>("certFile");
    QTest::addColumn<QString>("keyFile");
    QTest::addColumn<bool>("plainServer");
    QTest::addColumn<QString>("why");
    const QString c = test::tlsFixtureCerts();
    // The server's certificate is not signed by the CA we trust.
    QTest::newRow("wrong CA") << QStringLiteral("wrong CA")
                              << c + QStringLiteral("/wrong-ca/ca.pem")
                              << c + QStringLiteral("/client/cert.pem")
                              << c + QStringLiteral("/client/key.pem") << false
                              << QStringLiteral("wrong CA?");
    // Our certificate is signed by a CA the server does not trust.
    QTest::newRow("foreign client certificate")
        << QStringLiteral("foreign client") << c + QStringLiteral("/ca.pem")
        << c + QStringLiteral("/wrong-ca/cert.pem") << c + QStringLiteral("/wrong-ca/key.pem")
        << false << QStringLiteral("refused the client certificate");
    QTest::newRow("missing client certificate")
        << QStringLiteral("no client cert") << c + QStringLiteral("/ca.pem") << QStringLiteral("")
        << QStringLiteral("") << false << QStringLiteral("requires a client certificate");
    QTest::newRow("plain-HTTP endpoint")
        << QStringLiteral("plain http") << c + QStringLiteral("/ca.pem")
        << c + QStringLiteral("/client/cert.pem") << c + QStringLiteral("/client/key.pem") << true
        << QStringLiteral("does not speak TLS");
}

void TestTls::failures()
{
    QFETCH(QString, name);
    QFETCH(QString, caFile);
    QFETCH(QString, certFile);
    QFETCH(QString, keyFile);
    QFETCH(bool, plainServer);
    QFETCH(QString, why);
    std::unique_ptr<PlainHttpServer> plain;
    BackendProfile p;
    p.name = name;
    p.kind = QStringLiteral("docker-tls");
    p.uri = QStringLiteral("tcp://127.0.0.1:2376");
    if (plainServer) {
        plain = std::make_unique<PlainHttpServer>();
        p.uri = QStringLiteral("tcp://127.0.0.1:%1").arg(plain->port());
    }
    const QString endpoint = p.uri;
    p.caFile = caFile;
    p.certFile = certFile;
    p.keyFile = keyFile;
    auto engine = Engine::create(p);
    QVERIFY_RESULT(engine);
    auto info = (*engine)->ping();
    QVERIFY2(!info, "the handshake should have failed");
    const Error &e = info.error();
    QCOMPARE(e.code, ErrorCode::TlsError);
    for (const QString &want : {QStringLiteral("Profile '%1'").arg(name), endpoint, why})
        QVERIFY2(e.message.contains(want),
                 qPrintable(QStringLiteral("'%1' lacks '%2'").arg(e.toString(), want)));

    // A run fails the same way, before any sandbox exists.
    RunRequest req;
    req.origin = RunOrigin::Test;
    req.language = QStringLiteral("python");
    req.code = QStringLiteral("print(1)\n");
    auto r = (*engine)->runBlocking(req);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::TlsError);
    QVERIFY2(r.error().message.contains(endpoint), qPrintable(r.error().toString()));
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestTls::plainClientToTlsServer()
{
    BackendProfile p;
    p.name = QStringLiteral("plain client");
    p.kind = QStringLiteral("docker");
    p.uri = QStringLiteral("tcp://127.0.0.1:2376");
    auto engine = Engine::create(p);
    QVERIFY_RESULT(engine);
    auto info = (*engine)->ping();
    QVERIFY(!info);
    QCOMPARE(info.error().code, ErrorCode::TlsError);
    for (const QString &want :
         {QStringLiteral("Profile 'plain client'"), QStringLiteral("tcp://127.0.0.1:2376"),
          QStringLiteral("expects TLS")})
        QVERIFY2(info.error().message.contains(want), qPrintable(info.error().toString()));
}

void TestTls::cleanupTestCase()
{
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
