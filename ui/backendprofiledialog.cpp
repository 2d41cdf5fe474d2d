// SPDX-License-Identifier: GPL-3.0-or-later
#include "backendprofiledialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;
using namespace sandbox;

BackendProfileDialog::BackendProfileDialog(BackendProfileStore store, QWidget *parent)
    : QDialog(parent)
    , m_store(std::move(store))
{
    setWindowTitle(tr("Backend Profiles"));
    setObjectName(u"backendProfileDialog"_s);

    m_list = new QListWidget(this);
    m_list->setObjectName(u"profileList"_s);
    m_list->setAccessibleName(tr("Profiles"));
    m_add = new QPushButton(tr("&Add"), this);
    m_add->setObjectName(u"addProfileButton"_s);
    m_remove = new QPushButton(tr("&Remove"), this);
    m_remove->setObjectName(u"removeProfileButton"_s);
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(m_add);
    listButtons->addWidget(m_remove);
    auto *left = new QVBoxLayout;
    left->addWidget(m_list);
    left->addLayout(listButtons);

    m_name = new QLineEdit(this);
    m_name->setObjectName(u"profileName"_s);
    m_kind = new QComboBox(this);
    m_kind->setObjectName(u"profileKind"_s);
    m_kind->addItem(tr("Docker (local socket or DOCKER_HOST)"), u"docker"_s);
    m_kind->addItem(tr("Podman (API socket)"), u"podman"_s);
    m_kind->addItem(tr("Remote Docker over mutual TLS"), u"docker-tls"_s);
    m_kind->addItem(tr("Kubernetes"), u"kubernetes"_s);
    m_uri = new QLineEdit(this);
    m_uri->setObjectName(u"profileEndpoint"_s);
    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Kind:"), m_kind);
    form->addRow(tr("&Endpoint:"), m_uri);

    const auto fileRow = [this](QLineEdit *edit, const QString &objectName, bool folder) {
        edit->setObjectName(objectName);
        auto *row = new QHBoxLayout;
        row->addWidget(edit);
        auto *pick = new QToolButton(this);
        pick->setText(u"…"_s);
        pick->setToolTip(folder ? tr("Choose a folder") : tr("Choose a file"));
        connect(pick, &QToolButton::clicked, this, [this, edit, folder] { browse(edit, folder); });
        row->addWidget(pick);
        return row;
    };
    m_tlsGroup = new QGroupBox(tr("TLS"), this);
    m_tlsGroup->setObjectName(u"tlsGroup"_s);
    m_certPath = new QLineEdit(this);
    m_certPath->setPlaceholderText(tr("folder with ca.pem, cert.pem, key.pem (DOCKER_CERT_PATH)"));
    m_caFile = new QLineEdit(this);
    m_caFile->setPlaceholderText(tr("default: ca.pem in the folder"));
    m_certFile = new QLineEdit(this);
    m_certFile->setPlaceholderText(tr("default: cert.pem in the folder"));
    m_keyFile = new QLineEdit(this);
    m_keyFile->setPlaceholderText(tr("default: key.pem in the folder"));
    m_verify = new QCheckBox(tr("&Verify the server's certificate (DOCKER_TLS_VERIFY)"), this);
    m_verify->setObjectName(u"tlsVerify"_s);
    auto *tlsForm = new QFormLayout(m_tlsGroup);
    tlsForm->addRow(tr("Certificate &folder:"), fileRow(m_certPath, u"certPath"_s, true));
    tlsForm->addRow(tr("C&A certificate:"), fileRow(m_caFile, u"caFile"_s, false));
    tlsForm->addRow(tr("Client &certificate:"), fileRow(m_certFile, u"certFile"_s, false));
    tlsForm->addRow(tr("Client &key:"), fileRow(m_keyFile, u"keyFile"_s, false));
    tlsForm->addRow(m_verify);

    m_kubeGroup = new QGroupBox(tr("Kubernetes"), this);
    m_kubeGroup->setObjectName(u"kubernetesGroup"_s);
    m_kubeconfig = new QLineEdit(this);
    m_kubeconfig->setPlaceholderText(tr("default: $KUBECONFIG or ~/.kube/config"));
    m_context = new QLineEdit(this);
    m_context->setObjectName(u"kubeContext"_s);
    m_context->setPlaceholderText(tr("default: current-context"));
    m_namespace = new QLineEdit(this);
    m_namespace->setObjectName(u"kubeNamespace"_s);
    m_namespace->setPlaceholderText(tr("default: the context's namespace"));
    // The cluster, then every pod setting on its own tab; object names are the settings'
    // keys (kubernetesSettingKeys()), which tests and the store share.
    auto *kubeTabs = new QTabWidget(m_kubeGroup);
    kubeTabs->setObjectName(u"kubernetesTabs"_s);
    auto *kubeLayout = new QVBoxLayout(m_kubeGroup);
    kubeLayout->addWidget(kubeTabs);
    const auto tab = [kubeTabs](const QString &title) {
        auto *page = new QWidget(kubeTabs);
        kubeTabs->addTab(page, title);
        return new QFormLayout(page);
    };
    const auto line = [this](const QString &key, const QString &placeholder) {
        auto *edit = new QLineEdit(this);
        edit->setObjectName(key);
        edit->setPlaceholderText(placeholder);
        m_kubeLines.insert(key, edit);
        return edit;
    };
    const auto text = [this](const QString &key, const QString &placeholder) {
        auto *edit = new QPlainTextEdit(this);
        edit->setObjectName(key);
        edit->setPlaceholderText(placeholder);
        edit->setTabChangesFocus(true);
        edit->setMaximumHeight(key == "rawManifest"_L1 ? QWIDGETSIZE_MAX : 72);
        m_kubeTexts.insert(key, edit);
        return edit;
    };
    const auto seconds = [this](const QString &key, int maximum) {
        auto *spin = new QSpinBox(this);
        spin->setObjectName(key);
        spin->setRange(0, maximum);
        spin->setSuffix(tr(" s"));
        return spin;
    };
    auto *cluster = tab(tr("Cluster"));
    cluster->addRow(tr("Kube&config:"), fileRow(m_kubeconfig, u"kubeconfig"_s, false));
    cluster->addRow(tr("C&ontext:"), m_context);
    cluster->addRow(tr("Na&mespace:"), m_namespace);

    auto *resources = tab(tr("Resources"));
    const QString fromRun = tr("default: the run's limit");
    resources->addRow(tr("CPU request:"), line(u"cpuRequest"_s, fromRun));
    resources->addRow(tr("CPU limit:"), line(u"cpuLimit"_s, fromRun + tr(" (e.g. 500m, 2)")));
    resources->addRow(tr("Memory request:"), line(u"memoryRequest"_s, fromRun));
    resources->addRow(tr("Memory limit:"), line(u"memoryLimit"_s, fromRun + tr(" (e.g. 1Gi)")));
    resources->addRow(tr("Ephemeral storage:"), line(u"ephemeralStorage"_s, tr("e.g. 2Gi")));
    resources->addRow(tr("Runtime class:"), line(u"runtimeClassName"_s, tr("e.g. gvisor, kata")));
    m_activeDeadline = seconds(u"activeDeadlineSeconds"_s, 30 * 24 * 3600);
    m_activeDeadline->setSpecialValueText(tr("none"));
    m_activeDeadline->setToolTip(
        tr("The cluster ends a sandbox pod after this long even if Sandbox Studio is gone."));
    resources->addRow(tr("Pod deadline:"), m_activeDeadline);
    m_startTimeout = seconds(u"startTimeoutSeconds"_s, 24 * 3600);
    m_startTimeout->setToolTip(tr("How long to wait for a pod to be running (image pulls count)."));
    resources->addRow(tr("Start timeout:"), m_startTimeout);

    auto *scheduling = tab(tr("Scheduling"));
    scheduling->addRow(tr("Node selector:"),
                       text(u"nodeSelector"_s, tr("one key=value per line, e.g. disktype=ssd")));
    scheduling->addRow(tr("Tolerations:"),
                       text(u"tolerations"_s, tr("one per line: key=value:Effect, key:Effect "
                                                 "(exists), * (all); NoExecute@seconds")));
    scheduling->addRow(tr("Service account:"), line(u"serviceAccountName"_s, tr("default: none")));
    scheduling->addRow(tr("Image registry:"),
                       line(u"imageRegistry"_s, tr("prefix the cluster pulls from, e.g. "
                                                   "registry.example.com/team")));
    m_pullPolicy = new QComboBox(this);
    m_pullPolicy->setObjectName(u"imagePullPolicy"_s);
    m_pullPolicy->addItems({u"IfNotPresent"_s, u"Always"_s, u"Never"_s});
    scheduling->addRow(tr("Pull policy:"), m_pullPolicy);
    scheduling->addRow(tr("Pull secrets:"),
                       text(u"imagePullSecrets"_s, tr("one secret name per line")));

    auto *metadata = tab(tr("Metadata"));
    metadata->addRow(tr("Labels:"), text(u"labels"_s, tr("one key=value per line")));
    metadata->addRow(tr("Annotations:"), text(u"annotations"_s, tr("one key=value per line")));

    auto *manifest = tab(tr("Manifest"));
    manifest->addRow(new QLabel(tr("Merged over the generated pod (YAML or JSON): objects "
                                   "merge key by key, null removes a key."),
                                this));
    manifest->addRow(text(u"rawManifest"_s, u"spec:\n  priorityClassName: low"_s));

    m_message = new QLabel(this);
    m_message->setObjectName(u"profileMessage"_s);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_test = new QPushButton(tr("&Test Connection"), this);
    m_test->setObjectName(u"testConnectionButton"_s);
    m_save = new QPushButton(tr("&Save"), this);
    m_save->setObjectName(u"saveProfileButton"_s);
    auto *formButtons = new QHBoxLayout;
    formButtons->addWidget(m_test);
    formButtons->addStretch();
    formButtons->addWidget(m_save);

    auto *right = new QVBoxLayout;
    right->addLayout(form);
    right->addWidget(m_tlsGroup);
    right->addWidget(m_kubeGroup);
    right->addWidget(m_message);
    right->addStretch();
    right->addLayout(formButtons);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left, 1);
    columns->addLayout(right, 2);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *outer = new QVBoxLayout(this);
    outer->addLayout(columns);
    outer->addWidget(close);

    connect(m_add, &QPushButton::clicked, this, &BackendProfileDialog::addProfile);
    connect(m_remove, &QPushButton::clicked, this, &BackendProfileDialog::removeProfile);
    connect(m_save, &QPushButton::clicked, this, &BackendProfileDialog::saveProfile);
    connect(m_test, &QPushButton::clicked, this, &BackendProfileDialog::testConnection);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &BackendProfileDialog::updateKindFields);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        auto found = m_store.find(m_list->item(row)->text());
        if (found)
            showProfile(*found);
    });

    reloadList(m_store.currentName());
    resize(820, 560);
}

void BackendProfileDialog::reloadList(const QString &select)
{
    const QSignalBlocker block(m_list);
    m_list->clear();
    int row = 0;
    for (const BackendProfile &p : m_store.profiles()) {
        auto *item = new QListWidgetItem(p.name, m_list);
        item->setToolTip(p.describe());
        if (p.name == select)
            row = m_list->count() - 1;
    }
    m_list->setCurrentRow(row);
    if (auto found = m_store.find(m_list->item(row)->text()))
        showProfile(*found);
}

bool BackendProfileDialog::selectProfile(const QString &name)
{
    const auto items = m_list->findItems(name, Qt::MatchFixedString);
    if (items.isEmpty())
        return false;
    m_list->setCurrentItem(items.first());
    return true;
}

void BackendProfileDialog::showProfile(const BackendProfile &p)
{
    m_builtIn = BackendProfileStore::isBuiltIn(p.name);
    m_name->setText(p.name);
    m_kind->setCurrentIndex(qMax(0, m_kind->findData(p.kind)));
    m_uri->setText(p.uri);
    m_certPath->setText(p.certPath);
    m_caFile->setText(p.caFile);
    m_certFile->setText(p.certFile);
    m_keyFile->setText(p.keyFile);
    m_verify->setChecked(p.tlsVerify);
    m_kubeconfig->setText(p.kubernetes.kubeconfig);
    m_context->setText(p.kubernetes.context);
    m_namespace->setText(p.kubernetes.namespaceName);
    for (QLineEdit *edit : std::as_const(m_kubeLines))
        edit->clear();
    for (QPlainTextEdit *edit : std::as_const(m_kubeTexts))
        edit->clear();
    for (const auto &[key, entries] : kubernetesSettingValues(p.kubernetes)) {
        if (QLineEdit *lineEdit = m_kubeLines.value(key))
            lineEdit->setText(entries.join(u' '));
        else if (QPlainTextEdit *textEdit = m_kubeTexts.value(key))
            textEdit->setPlainText(entries.join(u'\n'));
    }
    m_pullPolicy->setCurrentText(p.kubernetes.imagePullPolicy);
    m_activeDeadline->setValue(int(p.kubernetes.activeDeadlineSeconds));
    m_startTimeout->setValue(int(p.kubernetes.startTimeoutSeconds));
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_name, m_kind, m_uri, m_tlsGroup, m_kubeGroup})
        w->setEnabled(!m_builtIn);
    m_save->setEnabled(!m_builtIn);
    m_remove->setEnabled(!m_builtIn);
    showMessage(m_builtIn ? tr("Built in: follows the environment (%1).").arg(p.endpointDisplay())
                          : QString(),
                false);
    updateKindFields();
}

void BackendProfileDialog::updateKindFields()
{
    const QString kind = m_kind->currentData().toString();
    const bool kube = kind == "kubernetes"_L1;
    m_kubeGroup->setVisible(kube);
    m_tlsGroup->setVisible(!kube && kind != "podman"_L1);
    m_uri->setEnabled(!kube && !m_builtIn);
    if (kind == "docker"_L1)
        m_uri->setPlaceholderText(tr("default: DOCKER_HOST or unix:///var/run/docker.sock"));
    else if (kind == "podman"_L1)
        m_uri->setPlaceholderText(tr("default: %1").arg(BackendProfile::defaultPodmanUri()));
    else if (kind == "docker-tls"_L1)
        m_uri->setPlaceholderText(tr("tcp://HOST:2376"));
    else
        m_uri->setPlaceholderText(tr("from the kubeconfig"));
}

Result<BackendProfile> BackendProfileDialog::formProfile() const
{
    BackendProfile p;
    p.name = m_name->text().trimmed();
    p.kind = m_kind->currentData().toString();
    p.uri = m_uri->text().trimmed();
    p.certPath = m_certPath->text().trimmed();
    p.caFile = m_caFile->text().trimmed();
    p.certFile = m_certFile->text().trimmed();
    p.keyFile = m_keyFile->text().trimmed();
    p.tlsVerify = m_verify->isChecked();
    p.kubernetes.kubeconfig = m_kubeconfig->text().trimmed();
    p.kubernetes.context = m_context->text().trimmed();
    p.kubernetes.namespaceName = m_namespace->text().trimmed();
    p.kubernetes.imagePullPolicy = m_pullPolicy->currentText();
    p.kubernetes.activeDeadlineSeconds = m_activeDeadline->value();
    p.kubernetes.startTimeoutSeconds = m_startTimeout->value();
    if (p.kind != "kubernetes"_L1)
        return p;
    for (auto it = m_kubeLines.cbegin(); it != m_kubeLines.cend(); ++it)
        if (auto set = setKubernetesSetting(p.kubernetes, it.key(), it.value()->text()); !set)
            return std::unexpected(set.error());
    for (auto it = m_kubeTexts.cbegin(); it != m_kubeTexts.cend(); ++it)
        if (auto set = setKubernetesSetting(p.kubernetes, it.key(), it.value()->toPlainText());
            !set)
            return std::unexpected(set.error());
    return p;
}

void BackendProfileDialog::addProfile()
{
    BackendProfile p;
    p.name = tr("New profile");
    for (int i = 2; m_store.find(p.name); ++i)
        p.name = tr("New profile %1").arg(i);
    p.kind = u"docker-tls"_s;
    p.uri = u"tcp://"_s;
    {
        const QSignalBlocker block(m_list);
        m_list->clearSelection();
        m_list->setCurrentRow(-1);
    }
    showProfile(p);
    showMessage(tr("Fill in the endpoint and certificates, then Save."), false);
    m_name->setFocus();
    m_name->selectAll();
}

bool BackendProfileDialog::saveProfile()
{
    const auto form = formProfile();
    if (!form) {
        showMessage(form.error().message, true);
        return false;
    }
    const BackendProfile &p = *form;
    auto saved = m_store.save(p);
    if (!saved) {
        showMessage(saved.error().message, true);
        return false;
    }
    // Renamed: the old entry goes.
    if (QListWidgetItem *item = m_list->currentItem();
        item && item->text() != p.name && !BackendProfileStore::isBuiltIn(item->text()))
        m_store.remove(item->text());
    reloadList(p.name);
    showMessage(tr("Saved."), false);
    Q_EMIT profilesChanged();
    return true;
}

void BackendProfileDialog::removeProfile()
{
    QListWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    auto removed = m_store.remove(item->text());
    if (!removed) {
        showMessage(removed.error().message, true);
        return;
    }
    reloadList(m_store.currentName());
    Q_EMIT profilesChanged();
}

void BackendProfileDialog::testConnection()
{
    const auto form = formProfile();
    if (!form) {
        showMessage(form.error().message, true);
        return;
    }
    const BackendProfile p = *form;
    const int generation = ++m_testGeneration;
    m_test->setEnabled(false);
    showMessage(tr("Connecting to %1…").arg(p.describe()), false);
    auto future = QtConcurrent::run([p]() -> Result<QString> {
        auto engine = Engine::create(p);
        if (!engine)
            return std::unexpected(engine.error());
        auto info = (*engine)->ping();
        if (!info)
            return std::unexpected(info.error());
        return QStringLiteral("%1 %2 (API %3) at %4")
            .arg(info->name, info->version, info->apiVersion,
                 (*engine)->runtime().endpointDisplay());
    });
    future.then(this, [this, generation, p](const Result<QString> &result) {
        if (generation != m_testGeneration)
            return; // a newer test is under way
        m_test->setEnabled(true);
        if (result) {
            m_testResult = tr("Connected: %1").arg(*result);
            showMessage(m_testResult, false);
        } else {
            // Errors from the engine name the profile; say where it tried in any case.
            QString text = result.error().message;
            const QString where = p.endpointDisplay();
            if (!where.isEmpty() && !text.contains(where))
                text += tr(" (endpoint %1)").arg(where);
            if (!text.contains(p.name))
                text = tr("Profile '%1': %2").arg(p.name, text);
            m_testResult = text;
            showMessage(text, true);
            m_message->setToolTip(result.error().toString());
        }
        Q_EMIT connectionTested(bool(result), m_testResult);
    });
}

QString BackendProfileDialog::testResult() const
{
    return m_testResult;
}

void BackendProfileDialog::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? u"color: #cf222e;"_s : QString());
    m_message->setToolTip(QString());
}

QString BackendProfileDialog::browse(QLineEdit *edit, bool folder)
{
    const QString chosen =
        folder ? QFileDialog::getExistingDirectory(this, tr("Certificate folder"), edit->text())
               : QFileDialog::getOpenFileName(this, tr("Choose a file"), edit->text());
    if (!chosen.isEmpty())
        edit->setText(chosen);
    return chosen;
}
