// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/backendprofiles.h"

#include <QDialog>
#include <QHash>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

/// Backend profiles: the list on the left (built-ins first, read-only), the selected
/// profile's settings on the right: kind, endpoint, TLS certificate folder and files, server
/// verification, and for kind "kubernetes" the cluster (kubeconfig, context, namespace)
/// and every pod setting of KubernetesSettings on tabs (Resources, Scheduling, Metadata,
/// Manifest; lists one entry per line, as setKubernetesSetting() takes them). Add,
/// Save, Remove; Test connection pings the engine on a worker and shows its name and
/// version, or the error naming the profile and the endpoint. Edits go to store.
class BackendProfileDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit BackendProfileDialog(sandbox::BackendProfileStore store, QWidget *parent = nullptr);

    /// Selects the profile named name in the list (false when there is none).
    bool selectProfile(const QString &name);
    /// The profile as the form shows it now (name, kind, endpoint, files, options).
    /// Errors: InvalidArgument naming the Kubernetes field whose text is not valid.
    sandbox::Result<sandbox::BackendProfile> formProfile() const;
    /// Text of the last connection test ("Podman 4.3.1 (API 1.41) at unix://...").
    QString testResult() const;
    const sandbox::BackendProfileStore &store() const { return m_store; }

public Q_SLOTS:
    /// Starts a new, unsaved profile (kind docker-tls, the usual reason to add one).
    void addProfile();
    /// Saves the form; shows the store's error under the form when it refuses.
    bool saveProfile();
    /// Removes the selected stored profile.
    void removeProfile();
    /// Pings the form's profile on a worker thread; connectionTested() tells the outcome.
    void testConnection();

Q_SIGNALS:
    /// After Save or Remove: the picker lists profiles again.
    void profilesChanged();
    void connectionTested(bool ok, const QString &text);

private:
    void reloadList(const QString &select);
    void showProfile(const sandbox::BackendProfile &profile);
    void updateKindFields();
    void showMessage(const QString &text, bool error);
    QString browse(QLineEdit *edit, bool folder);

    sandbox::BackendProfileStore m_store;
    QListWidget *m_list;
    QPushButton *m_add;
    QPushButton *m_remove;
    QPushButton *m_save;
    QPushButton *m_test;
    QLineEdit *m_name;
    QComboBox *m_kind;
    QLineEdit *m_uri;
    QGroupBox *m_tlsGroup;
    QLineEdit *m_certPath;
    QLineEdit *m_caFile;
    QLineEdit *m_certFile;
    QLineEdit *m_keyFile;
    QCheckBox *m_verify;
    QGroupBox *m_kubeGroup;
    QLineEdit *m_kubeconfig;
    QLineEdit *m_context;
    QLineEdit *m_namespace;
    /// Kubernetes pod settings shown as one line each, by kubernetesSettingKeys() key.
    QHash<QString, QLineEdit *> m_kubeLines;
    /// Kubernetes list settings (one entry per line) and the raw manifest, by key.
    QHash<QString, QPlainTextEdit *> m_kubeTexts;
    QComboBox *m_pullPolicy;
    QSpinBox *m_activeDeadline;
    QSpinBox *m_startTimeout;
    QLabel *m_message;
    QString m_testResult;
    bool m_builtIn = false;
    int m_testGeneration = 0;
};
