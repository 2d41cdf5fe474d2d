// SPDX-License-Identifier: GPL-3.0-or-later
// The Backend Profiles dialog and the window's backend picker: profiles added, edited and
// removed through the widgets land in the shared store; Test Connection shows the real
// engine's name and version (Docker and Podman), or an error naming profile and endpoint;
// the window switches engines and its status and banner say which profile is in use.
#include "backendprofiledialog.h"
#include "enginebanner.h"
#include "mainwindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLoggingCategory>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sandbox;

class TestBackendProfiles final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void addEditRemove();
    void refusesBadInput();
    void kubernetesFields();
    void testConnection_data();
    void testConnection();
    void testConnectionErrorNamesProfileAndEndpoint();
    void windowSwitchesBackend();

private:
    template <typename T> T *child(QWidget *parent, const QString &name)
    {
        auto *w = parent->findChild<T *>(name);
        if (!w)
            qFatal("no child %s", qPrintable(name));
        return w;
    }
    QString storePath() const { return m_dir.filePath(u"backends.conf"_s); }
    QTemporaryDir m_dir;
};

void TestBackendProfiles::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (!qEnvironmentVariableIsSet("SANDBOX_AGENT_PATH"))
        qputenv("SANDBOX_AGENT_PATH", SANDBOX_AGENT_BINARY);
    QLoggingCategory::setFilterRules(u"sandbox.*.debug=false"_s);
}

void TestBackendProfiles::init()
{
    QFile::remove(storePath());
    qputenv("SANDBOX_STUDIO_PROFILES", QFile::encodeName(storePath()));
}

void TestBackendProfiles::addEditRemove()
{
    BackendProfileDialog dialog{BackendProfileStore(storePath())};
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *list = child<QListWidget>(&dialog, u"profileList"_s);
    QCOMPARE(list->count(), 2);
    QCOMPARE(list->currentItem()->text(), u"Local Docker"_s);
    // Built-ins are read-only.
    QVERIFY(!child<QPushButton>(&dialog, u"removeProfileButton"_s)->isEnabled());
    QVERIFY(!child<QPushButton>(&dialog, u"saveProfileButton"_s)->isEnabled());
    QVERIFY(child<QPushButton>(&dialog, u"testConnectionButton"_s)->isEnabled());

    QSignalSpy changed(&dialog, &BackendProfileDialog::profilesChanged);
    QTest::mouseClick(child<QPushButton>(&dialog, u"addProfileButton"_s), Qt::LeftButton);
    auto *name = child<QLineEdit>(&dialog, u"profileName"_s);
    auto *kind = child<QComboBox>(&dialog, u"profileKind"_s);
    auto *endpoint = child<QLineEdit>(&dialog, u"profileEndpoint"_s);
    QVERIFY(name->isEnabled());
    QCOMPARE(kind->currentData().toString(), u"docker-tls"_s);
    QVERIFY(child<QGroupBox>(&dialog, u"tlsGroup"_s)->isVisible());
    QVERIFY(!child<QGroupBox>(&dialog, u"kubernetesGroup"_s)->isVisible());
    name->clear();
    QTest::keyClicks(name, u"build server"_s);
    endpoint->clear();
    QTest::keyClicks(endpoint, u"tcp://127.0.0.1:2376"_s);
    QTest::keyClicks(child<QLineEdit>(&dialog, u"certPath"_s), m_dir.path());
    child<QCheckBox>(&dialog, u"tlsVerify"_s)->setChecked(false);
    QTest::mouseClick(child<QPushButton>(&dialog, u"saveProfileButton"_s), Qt::LeftButton);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(list->count(), 3);
    QCOMPARE(list->currentItem()->text(), u"build server"_s);

    // Saved where the CLI reads it.
    auto saved = BackendProfileStore(storePath()).find(u"build server"_s);
    QVERIFY(saved);
    QCOMPARE(saved->kind, u"docker-tls"_s);
    QCOMPARE(saved->uri, u"tcp://127.0.0.1:2376"_s);
    QCOMPARE(saved->certPath, m_dir.path());
    QVERIFY(!saved->tlsVerify);

    // Edit: rename and move; the old name goes.
    name->clear();
    QTest::keyClicks(name, u"build server 2"_s);
    endpoint->clear();
    QTest::keyClicks(endpoint, u"tcp://127.0.0.1:3376"_s);
    QTest::mouseClick(child<QPushButton>(&dialog, u"saveProfileButton"_s), Qt::LeftButton);
    QCOMPARE(list->count(), 3);
    BackendProfileStore store(storePath());
    QVERIFY(!store.find(u"build server"_s));
    QCOMPARE(store.find(u"build server 2"_s)->uri, u"tcp://127.0.0.1:3376"_s);

    QVERIFY(child<QPushButton>(&dialog, u"removeProfileButton"_s)->isEnabled());
    QTest::mouseClick(child<QPushButton>(&dialog, u"removeProfileButton"_s), Qt::LeftButton);
    QCOMPARE(list->count(), 2);
    QVERIFY(!BackendProfileStore(storePath()).find(u"build server 2"_s));
    QCOMPARE(changed.count(), 3);
}

void TestBackendProfiles::refusesBadInput()
{
    BackendProfileDialog dialog{BackendProfileStore(storePath())};
    dialog.addProfile();
    child<QLineEdit>(&dialog, u"profileEndpoint"_s)->clear(); // TLS without a host
    QVERIFY(!dialog.saveProfile());
    auto *message = child<QLabel>(&dialog, u"profileMessage"_s);
    QVERIFY2(message->text().contains(u"needs a host"_s), qPrintable(message->text()));
    child<QLineEdit>(&dialog, u"profileName"_s)->setText(u"Local Podman"_s);
    child<QLineEdit>(&dialog, u"profileEndpoint"_s)->setText(u"tcp://h:2376"_s);
    QVERIFY(!dialog.saveProfile());
    QVERIFY2(message->text().contains(u"built-in"_s), qPrintable(message->text()));
    QCOMPARE(BackendProfileStore(storePath()).profiles().size(), 2);
}

void TestBackendProfiles::kubernetesFields()
{
    BackendProfileDialog dialog{BackendProfileStore(storePath())};
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.addProfile();
    auto *kind = child<QComboBox>(&dialog, u"profileKind"_s);
    kind->setCurrentIndex(kind->findData(u"kubernetes"_s));
    QVERIFY(child<QGroupBox>(&dialog, u"kubernetesGroup"_s)->isVisible());
    QVERIFY(!child<QGroupBox>(&dialog, u"tlsGroup"_s)->isVisible());
    child<QLineEdit>(&dialog, u"profileName"_s)->setText(u"cluster"_s);
    child<QLineEdit>(&dialog, u"kubeContext"_s)->setText(u"kind-dev"_s);
    child<QLineEdit>(&dialog, u"kubeNamespace"_s)->setText(u"sandboxes"_s);
    QVERIFY(dialog.saveProfile());
    auto saved = BackendProfileStore(storePath()).find(u"cluster"_s);
    QVERIFY(saved);
    QCOMPARE(saved->kind, u"kubernetes"_s);
    QCOMPARE(saved->kubernetes.context, u"kind-dev"_s);
    QCOMPARE(saved->kubernetes.namespaceName, u"sandboxes"_s);

    // The pod settings tabs: typed in, saved, shown again when the profile is picked.
    child<QLineEdit>(&dialog, u"cpuRequest"_s)->setText(u"250m"_s);
    child<QLineEdit>(&dialog, u"runtimeClassName"_s)->setText(u"gvisor"_s);
    child<QSpinBox>(&dialog, u"activeDeadlineSeconds"_s)->setValue(900);
    child<QComboBox>(&dialog, u"imagePullPolicy"_s)->setCurrentText(u"Never"_s);
    child<QPlainTextEdit>(&dialog, u"nodeSelector"_s)
        ->setPlainText(u"disktype=ssd\nkubernetes.io/arch=amd64\n"_s);
    child<QPlainTextEdit>(&dialog, u"tolerations"_s)
        ->setPlainText(u"gpu=true:NoSchedule\ndedicated:NoExecute@60"_s);
    child<QPlainTextEdit>(&dialog, u"imagePullSecrets"_s)->setPlainText(u"regcred"_s);
    child<QPlainTextEdit>(&dialog, u"labels"_s)->setPlainText(u"team=data"_s);
    child<QPlainTextEdit>(&dialog, u"annotations"_s)->setPlainText(u"owner=Ana, Data"_s);
    child<QPlainTextEdit>(&dialog, u"rawManifest"_s)
        ->setPlainText(u"spec:\n  priorityClassName: low\n"_s);
    QVERIFY(dialog.saveProfile());
    saved = BackendProfileStore(storePath()).find(u"cluster"_s);
    QVERIFY(saved);
    const KubernetesSettings &k = saved->kubernetes;
    QCOMPARE(k.cpuRequest, u"250m"_s);
    QCOMPARE(k.runtimeClassName, u"gvisor"_s);
    QCOMPARE(k.activeDeadlineSeconds, 900);
    QCOMPARE(k.imagePullPolicy, u"Never"_s);
    QCOMPARE(k.nodeSelector.size(), 2);
    QCOMPARE(k.tolerations.size(), 2);
    QCOMPARE(k.tolerations[1].tolerationSeconds, 60);
    QCOMPARE(k.imagePullSecrets, QStringList{u"regcred"_s});
    QCOMPARE(k.labels.value(u"team"_s), u"data"_s);
    QCOMPARE(k.annotations.value(u"owner"_s), u"Ana, Data"_s);
    QVERIFY(k.rawManifest.contains(u"priorityClassName"_s));
    QVERIFY(dialog.selectProfile(u"Local Docker"_s));
    QVERIFY(child<QPlainTextEdit>(&dialog, u"tolerations"_s)->toPlainText().isEmpty());
    QVERIFY(dialog.selectProfile(u"cluster"_s));
    QCOMPARE(child<QPlainTextEdit>(&dialog, u"tolerations"_s)->toPlainText(),
             u"gpu=true:NoSchedule\ndedicated:NoExecute@60"_s);
    QCOMPARE(child<QSpinBox>(&dialog, u"activeDeadlineSeconds"_s)->value(), 900);

    // A bad entry is refused with the field named, and the stored profile is unchanged.
    child<QPlainTextEdit>(&dialog, u"tolerations"_s)->setPlainText(u"gpu:NoRun"_s);
    QVERIFY(!dialog.saveProfile());
    QVERIFY2(child<QLabel>(&dialog, u"profileMessage"_s)->text().contains(u"tolerations"_s),
             qPrintable(child<QLabel>(&dialog, u"profileMessage"_s)->text()));
    QCOMPARE(BackendProfileStore(storePath()).find(u"cluster"_s)->kubernetes.tolerations.size(), 2);
}

void TestBackendProfiles::testConnection_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("engine");
    QTest::newRow("docker") << u"Local Docker"_s << u"Docker Engine"_s;
    QTest::newRow("podman") << u"Local Podman"_s << u"Podman"_s;
}

void TestBackendProfiles::testConnection()
{
    QFETCH(QString, profile);
    QFETCH(QString, engine);
    BackendProfileDialog dialog{BackendProfileStore(storePath())};
    dialog.show();
    QVERIFY(dialog.selectProfile(profile));
    QSignalSpy tested(&dialog, &BackendProfileDialog::connectionTested);
    QTest::mouseClick(child<QPushButton>(&dialog, u"testConnectionButton"_s), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15'000);
    const QString text = tested.first().at(1).toString();
    QVERIFY2(tested.first().first().toBool(),
             qPrintable(text + u"\nStart the engines with `./studio.sh services`."_s));
    // "Connected: Podman 4.3.1 (API 1.41) at unix:///run/podman/podman.sock"
    QVERIFY2(text.contains(engine + u' '), qPrintable(text));
    QVERIFY2(text.contains(u"(API "_s), qPrintable(text));
    QVERIFY2(QRegularExpression(u"\\d+\\.\\d+"_s).match(text).hasMatch(), qPrintable(text));
    QCOMPARE(child<QLabel>(&dialog, u"profileMessage"_s)->text(), text);
}

void TestBackendProfiles::testConnectionErrorNamesProfileAndEndpoint()
{
    BackendProfileStore store(storePath());
    BackendProfile broken;
    broken.name = u"broken podman"_s;
    broken.kind = u"podman"_s;
    broken.uri = u"unix:///nonexistent/podman.sock"_s;
    QVERIFY(store.save(broken));
    BackendProfileDialog dialog{store};
    QVERIFY(dialog.selectProfile(broken.name));
    QSignalSpy tested(&dialog, &BackendProfileDialog::connectionTested);
    dialog.testConnection();
    QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15'000);
    QCOMPARE(tested.first().first().toBool(), false);
    const QString text = dialog.testResult();
    QVERIFY2(text.contains(u"'broken podman'"_s), qPrintable(text));
    QVERIFY2(text.contains(u"unix:///nonexistent/podman.sock"_s), qPrintable(text));
    QVERIFY2(text.contains(u"podman system service"_s), qPrintable(text)); // what to start
}

void TestBackendProfiles::windowSwitchesBackend()
{
    BackendProfileStore store(storePath());
    BackendProfile nowhere;
    nowhere.name = u"nowhere"_s;
    nowhere.kind = u"docker"_s;
    nowhere.uri = u"unix:///nonexistent/docker.sock"_s;
    QVERIFY(store.save(nowhere));

    auto engine = Engine::create(BackendProfile::localDocker());
    QVERIFY(engine);
    MainWindow window(*engine);
    QSignalSpy checked(&window, &MainWindow::engineChecked);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 15'000);
    auto *picker = child<QComboBox>(&window, u"backendPicker"_s);
    QVERIFY(picker->findText(u"nowhere"_s) >= 0);
    QCOMPARE(picker->currentText(), u"Local Docker"_s);

    // Podman: the status bar names the profile, the engine and its endpoint.
    QVERIFY(window.selectBackend(u"Local Podman"_s));
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 2, 15'000);
    auto *status = child<QLabel>(&window, u"backendStatus"_s);
    QVERIFY2(checked.last().first().toBool(),
             qPrintable(status->toolTip() + u"\nStart podman with `./studio.sh services`."_s));
    QVERIFY2(status->text().contains(u"Local Podman"_s), qPrintable(status->text()));
    QVERIFY2(status->text().contains(u"Podman 4"_s) || status->text().contains(u"Podman 5"_s),
             qPrintable(status->text()));
    QVERIFY2(status->text().contains(u"unix:///run/podman/podman.sock"_s),
             qPrintable(status->text()));
    QCOMPARE(picker->currentText(), u"Local Podman"_s);
    QCOMPARE(BackendProfileStore(storePath()).currentName(), u"Local Podman"_s);

    // A profile whose engine is not there: the banner names the profile and the endpoint.
    QVERIFY(window.selectBackend(u"nowhere"_s));
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 3, 15'000);
    QCOMPARE(checked.last().first().toBool(), false);
    auto *banner = child<EngineBanner>(&window, u"engineBanner"_s);
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->headline().contains(u"'nowhere'"_s), qPrintable(banner->headline()));
    QVERIFY2(banner->headline().contains(u"unix:///nonexistent/docker.sock"_s),
             qPrintable(banner->headline()));
    QVERIFY2(status->text().contains(u"nowhere"_s), qPrintable(status->text()));

    // Back to Docker.
    QVERIFY(window.selectBackend(u"Local Docker"_s));
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 4, 15'000);
    QVERIFY(checked.last().first().toBool());
    QVERIFY(banner->isHidden());
}

QTEST_MAIN(TestBackendProfiles)
#include "tst_backendprofiles.moc"
