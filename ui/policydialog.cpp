// SPDX-License-Identifier: GPL-3.0-or-later
#include "policydialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace sandbox;
using namespace Qt::StringLiterals;

namespace {
const std::array<Severity, 4> Severities{Severity::Low, Severity::Medium, Severity::High,
                                         Severity::Critical};
const std::array<PolicyAction, 4> Actions{PolicyAction::Allow, PolicyAction::Warn,
                                          PolicyAction::Ask, PolicyAction::Block};

QComboBox *actionCombo(QWidget *parent)
{
    auto *box = new QComboBox(parent);
    for (PolicyAction a : Actions)
        box->addItem(actionName(a), int(a));
    return box;
}

QStringList splitList(const QString &text)
{
    static const QRegularExpression sep(u"[,\\s]+"_s);
    return text.split(sep, Qt::SkipEmptyParts);
}
} // namespace

PolicyDialog::PolicyDialog(const Policy &policy, QWidget *parent)
    : QDialog(parent)
    , m_preset(new QComboBox(this))
    , m_table(new QTableWidget(this))
    , m_edit(new QPushButton(tr("&Edit…"), this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_summary(new QLabel(this))
{
    setObjectName(u"policyDialog"_s);
    setWindowTitle(tr("Security Policy"));
    resize(900, 560);

    m_preset->setObjectName(u"policyPreset"_s);
    m_preset->addItems(Policy::presetNames());
    m_preset->setToolTip(tr("The preset's rules and severity mapping; rules you add or change "
                            "are kept when you switch."));

    auto *mapping = new QHBoxLayout;
    for (size_t i = 0; i < Severities.size(); ++i) {
        auto *label = new QLabel(severityName(Severities[i]) + u':', this);
        m_actions[i] = actionCombo(this);
        m_actions[i]->setObjectName(u"severityAction_"_s + severityName(Severities[i]));
        label->setBuddy(m_actions[i]);
        mapping->addWidget(label);
        mapping->addWidget(m_actions[i]);
        connect(m_actions[i], &QComboBox::currentIndexChanged, this, [this, i] {
            if (m_updating)
                return;
            m_policy.setActionFor(Severities[i], PolicyAction(m_actions[i]->currentData().toInt()));
            refresh();
        });
    }
    mapping->addStretch(1);

    auto *form = new QFormLayout;
    form->addRow(tr("&Preset:"), m_preset);
    form->addRow(tr("Severity → action:"), mapping);

    m_table->setObjectName(u"policyRules"_s);
    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels(
        {tr("Rule"), tr("Languages"), tr("Matches"), tr("Severity"), tr("Action"), tr("Message")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        const bool any = !m_table->selectedItems().isEmpty();
        m_edit->setEnabled(any);
        m_remove->setEnabled(any);
    });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &PolicyDialog::editRule);

    auto *add = new QPushButton(tr("&Add…"), this);
    add->setObjectName(u"addRule"_s);
    m_edit->setObjectName(u"editRule"_s);
    m_remove->setObjectName(u"removeRule"_s);
    auto *importButton = new QPushButton(tr("&Import…"), this);
    importButton->setToolTip(tr("Load a policy file (JSON, docs/policy.md)"));
    auto *exportButton = new QPushButton(tr("E&xport…"), this);
    exportButton->setToolTip(tr("Save this policy as a file"));
    connect(add, &QPushButton::clicked, this, &PolicyDialog::addRule);
    connect(m_edit, &QPushButton::clicked, this, &PolicyDialog::editRule);
    connect(m_remove, &QPushButton::clicked, this, &PolicyDialog::removeRule);
    connect(importButton, &QPushButton::clicked, this, &PolicyDialog::importFile);
    connect(exportButton, &QPushButton::clicked, this, &PolicyDialog::exportFile);
    auto *ruleButtons = new QHBoxLayout;
    for (QPushButton *b : {add, m_edit, m_remove})
        ruleButtons->addWidget(b);
    ruleButtons->addStretch(1);
    ruleButtons->addWidget(importButton);
    ruleButtons->addWidget(exportButton);

    m_summary->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addLayout(ruleButtons);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);

    connect(m_preset, &QComboBox::currentTextChanged, this, [this](const QString &name) {
        if (!m_updating)
            choosePreset(name);
    });
    setPolicy(policy);
}

QString PolicyDialog::storagePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + u"/policy.json"_s;
}

Policy PolicyDialog::loadStored(QString *error)
{
    const Policy fallback = Policy::preset(u"standard"_s).value_or(Policy());
    if (!QFileInfo::exists(storagePath()))
        return fallback;
    auto loaded = Policy::load(storagePath());
    if (!loaded) {
        if (error)
            *error = loaded.error().message;
        return fallback;
    }
    return *loaded;
}

Result<void> PolicyDialog::store(const Policy &policy)
{
    QDir().mkpath(QFileInfo(storagePath()).path());
    return policy.save(storagePath());
}

void PolicyDialog::setPolicy(const Policy &policy)
{
    m_policy = policy;
    refresh();
}

void PolicyDialog::refresh()
{
    m_updating = true;
    const QString base = m_policy.base() == u"none" ? QString() : m_policy.base();
    if (!base.isEmpty())
        m_preset->setCurrentText(base);
    for (size_t i = 0; i < Severities.size(); ++i)
        m_actions[i]->setCurrentIndex(
            m_actions[i]->findData(int(m_policy.actionFor(Severities[i]))));

    const QStringList user = m_policy.userRuleIds();
    m_table->setRowCount(int(m_policy.rules().size()));
    int row = 0;
    for (const PolicyRule &r : m_policy.rules()) {
        const QString matches =
            !r.imports.isEmpty()
                ? tr("imports %1").arg(r.imports.join(u", "_s))
                : (r.scope == PolicyRule::Scope::Strings ? tr("strings: %1") : tr("code: %1"))
                      .arg(r.pattern);
        const QString action =
            actionName(m_policy.actionOf(r)) + (r.action ? QString() : tr(" (by severity)"));
        const QStringList cells{r.id + (user.contains(r.id) ? tr(" (yours)") : QString()),
                                r.languages.isEmpty() ? tr("all") : r.languages.join(u", "_s),
                                matches,
                                severityName(r.severity),
                                action,
                                r.message};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setData(Qt::UserRole, r.id);
            item->setToolTip(cells[c]);
            m_table->setItem(row, c, item);
        }
        ++row;
    }
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(2, qMin(m_table->columnWidth(2), 320));
    m_edit->setEnabled(!m_table->selectedItems().isEmpty());
    m_remove->setEnabled(!m_table->selectedItems().isEmpty());
    m_summary->setText(tr("%1 rules, %2 of them yours; removed preset rules: %3. Saved to %4.")
                           .arg(m_policy.rules().size())
                           .arg(user.size())
                           .arg(m_policy.disabledRuleIds().isEmpty()
                                    ? tr("none")
                                    : m_policy.disabledRuleIds().join(u", "_s))
                           .arg(QDir::toNativeSeparators(storagePath())));
    m_updating = false;
}

void PolicyDialog::choosePreset(const QString &name)
{
    auto preset = Policy::preset(name);
    if (!preset)
        return;
    // Keep what the user made: their rules and the preset rules they removed.
    Policy next = *preset;
    next.setName(m_policy.name() == m_policy.base() ? name : m_policy.name());
    for (const PolicyRule &r : m_policy.rules())
        if (m_policy.userRuleIds().contains(r.id))
            (void)next.setRule(r);
    for (const QString &id : m_policy.disabledRuleIds())
        next.removeRule(id);
    setPolicy(next);
}

bool PolicyDialog::editRuleForm(PolicyRule &rule, const QString &title)
{
    QDialog form(this);
    form.setObjectName(u"ruleForm"_s);
    form.setWindowTitle(title);
    auto *id = new QLineEdit(rule.id, &form);
    id->setObjectName(u"ruleId"_s);
    auto *languages = new QLineEdit(rule.languages.join(u", "_s), &form);
    languages->setObjectName(u"ruleLanguages"_s);
    languages->setPlaceholderText(tr("all languages"));
    auto *kind = new QComboBox(&form);
    kind->setObjectName(u"ruleKind"_s);
    kind->addItems({tr("Imports these modules"), tr("Pattern in code (not comments or strings)"),
                    tr("Pattern in string literals")});
    kind->setCurrentIndex(!rule.imports.isEmpty()                    ? 0
                          : rule.scope == PolicyRule::Scope::Strings ? 2
                                                                     : 1);
    auto *value =
        new QLineEdit(rule.imports.isEmpty() ? rule.pattern : rule.imports.join(u", "_s), &form);
    value->setObjectName(u"ruleValue"_s);
    value->setPlaceholderText(tr("module names, or a regular expression"));
    auto *severity = new QComboBox(&form);
    severity->setObjectName(u"ruleSeverity"_s);
    for (Severity s : Severities)
        severity->addItem(severityName(s), int(s));
    severity->setCurrentIndex(severity->findData(int(rule.severity)));
    auto *action = new QComboBox(&form);
    action->setObjectName(u"ruleAction"_s);
    action->addItem(tr("by severity"), -1);
    for (PolicyAction a : Actions)
        action->addItem(actionName(a), int(a));
    action->setCurrentIndex(action->findData(rule.action ? int(*rule.action) : -1));
    auto *message = new QLineEdit(rule.message, &form);
    message->setObjectName(u"ruleMessage"_s);
    auto *error = new QLabel(&form);
    error->setObjectName(u"ruleError"_s);
    error->setStyleSheet(u"color: #c0392b"_s);
    error->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &form);
    auto *layout = new QFormLayout(&form);
    layout->addRow(tr("&Id:"), id);
    layout->addRow(tr("&Languages:"), languages);
    layout->addRow(tr("&Matches:"), kind);
    layout->addRow(tr("&Value:"), value);
    layout->addRow(tr("&Severity:"), severity);
    layout->addRow(tr("&Action:"), action);
    layout->addRow(tr("M&essage:"), message);
    layout->addRow(error);
    layout->addRow(buttons);

    PolicyRule edited;
    auto build = [&] {
        edited = PolicyRule();
        edited.id = id->text().trimmed();
        edited.languages = splitList(languages->text().toLower());
        if (kind->currentIndex() == 0)
            edited.imports = splitList(value->text());
        else
            edited.pattern = value->text();
        edited.scope =
            kind->currentIndex() == 2 ? PolicyRule::Scope::Strings : PolicyRule::Scope::Code;
        edited.severity = Severity(severity->currentData().toInt());
        if (action->currentData().toInt() >= 0)
            edited.action = PolicyAction(action->currentData().toInt());
        edited.message = message->text().trimmed();
        Policy probe; // validates like the file format does
        return probe.setRule(edited);
    };
    connect(buttons, &QDialogButtonBox::accepted, &form, [&] {
        if (auto ok = build(); !ok) {
            error->setText(ok.error().message);
            return;
        }
        form.accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, &form, &QDialog::reject);
    if (form.exec() != QDialog::Accepted)
        return false;
    rule = edited;
    return true;
}

void PolicyDialog::addRule()
{
    PolicyRule rule;
    rule.id = u"my-rule-%1"_s.arg(m_policy.userRuleIds().size() + 1);
    rule.severity = Severity::Medium;
    if (!editRuleForm(rule, tr("Add Rule")))
        return;
    if (auto r = m_policy.setRule(rule); !r)
        QMessageBox::warning(this, tr("Add Rule"), r.error().message);
    refresh();
}

void PolicyDialog::editRule()
{
    const auto items = m_table->selectedItems();
    if (items.isEmpty())
        return;
    const QString id = items.first()->data(Qt::UserRole).toString();
    for (const PolicyRule &existing : m_policy.rules()) {
        if (existing.id != id)
            continue;
        PolicyRule rule = existing;
        if (!editRuleForm(rule, tr("Edit Rule")))
            return;
        if (rule.id != id)
            m_policy.removeRule(id);
        if (auto r = m_policy.setRule(rule); !r)
            QMessageBox::warning(this, tr("Edit Rule"), r.error().message);
        refresh();
        return;
    }
}

void PolicyDialog::removeRule()
{
    const auto items = m_table->selectedItems();
    if (items.isEmpty())
        return;
    m_policy.removeRule(items.first()->data(Qt::UserRole).toString());
    refresh();
}

void PolicyDialog::importFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import Policy"), QString(),
                                                      tr("Policy files (*.json)"));
    if (path.isEmpty())
        return;
    auto loaded = Policy::load(path);
    if (!loaded) {
        QMessageBox::warning(this, tr("Import Policy"), loaded.error().message);
        return;
    }
    setPolicy(*loaded);
}

void PolicyDialog::exportFile()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Policy"), m_policy.name() + u".json"_s, tr("Policy files (*.json)"));
    if (path.isEmpty())
        return;
    if (auto r = m_policy.save(path); !r)
        QMessageBox::warning(this, tr("Export Policy"), r.error().message);
}
