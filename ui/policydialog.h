// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/policy.h"

#include <QDialog>
#include <array>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

/// Editor of the security policy every run is checked with (engine/policy): a preset picker,
/// the action each severity gets, and the rule table (add, edit, remove; import and export
/// in the policy file format of docs/policy.md). The GUI keeps the policy in storagePath().
class PolicyDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit PolicyDialog(const sandbox::Policy &policy, QWidget *parent = nullptr);

    /// The policy as edited.
    sandbox::Policy policy() const { return m_policy; }

    /// AppConfigLocation/policy.json.
    static QString storagePath();
    /// The stored policy, or the standard preset when there is none; a stored file that does
    /// not parse gives the standard preset and *error says why.
    static sandbox::Policy loadStored(QString *error = nullptr);
    /// Writes policy to storagePath(). Errors: IoError.
    static sandbox::Result<void> store(const sandbox::Policy &policy);

private:
    void setPolicy(const sandbox::Policy &policy);
    void refresh();
    void choosePreset(const QString &name);
    void addRule();
    void editRule();
    void removeRule();
    void importFile();
    void exportFile();
    /// Shows the rule form; true when the user accepted a valid rule.
    bool editRuleForm(sandbox::PolicyRule &rule, const QString &title);

    sandbox::Policy m_policy;
    QComboBox *m_preset;
    std::array<QComboBox *, 4> m_actions{};
    QTableWidget *m_table;
    QPushButton *m_edit;
    QPushButton *m_remove;
    QLabel *m_summary;
    bool m_updating = false;
};
