// SPDX-License-Identifier: GPL-3.0-or-later
#include "firstrundialog.h"

#include "images/imagebuilder.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QThread>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace sandbox;

namespace {

enum Column
{
    NameColumn,
    StatusColumn,
};

QString socketPath(const QString &uri)
{
    return uri.startsWith(u"unix://") ? uri.mid(7) : QString();
}

QString hintFor(const QString &product, bool present)
{
    if (product == u"Podman") {
        return present
                   ? FirstRunDialog::tr("Start the Podman service: systemctl --user start "
                                        "podman.socket (or sudo systemctl start podman.socket).")
                   : FirstRunDialog::tr("Optional. Install it with: sudo apt install podman, "
                                        "then: systemctl --user enable --now podman.socket");
    }
    return present ? FirstRunDialog::tr("Start Docker: sudo systemctl start docker. If access is "
                                        "denied, join the docker group: sudo usermod -aG docker "
                                        "$USER, then log in again.")
                   : FirstRunDialog::tr("Install it with: sudo apt install docker.io, then: sudo "
                                        "systemctl enable --now docker");
}

FirstRunDialog::Probe probe(const FirstRunDialog::Candidate &candidate,
                            std::shared_ptr<Engine> *engineOut)
{
    FirstRunDialog::Probe p;
    p.candidate = candidate;
    const QString path = socketPath(candidate.uri);
    p.present = path.isEmpty() || QFileInfo::exists(path);
    if (!p.present) {
        p.hint = hintFor(candidate.product, false);
        return p;
    }
    BackendProfile profile;
    profile.name = candidate.product;
    profile.uri = candidate.uri;
    auto engine = Engine::create(profile);
    if (!engine) {
        p.problem = engine.error().message;
        p.hint = hintFor(candidate.product, true);
        return p;
    }
    auto info = (*engine)->ping();
    if (!info) {
        p.problem = info.error().message;
        p.hint = hintFor(candidate.product, true);
        return p;
    }
    p.reachable = true;
    p.version = (info->isPodman ? u"Podman "_s : u"Docker "_s) + info->version.section(u'+', 0, 0);
    if (engineOut && !*engineOut)
        *engineOut = *engine;
    return p;
}

} // namespace

FirstRunDialog::FirstRunDialog(std::shared_ptr<Engine> engine, QWidget *parent)
    : QDialog(parent)
    , m_engine(std::move(engine))
    , m_candidates(defaultCandidates())
    , m_recipes(ImageCatalog::instance().all())
    , m_summary(new QLabel(this))
    , m_engines(new QTreeWidget(this))
    , m_imagesView(new QTreeWidget(this))
    , m_buildStatus(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_build(new QPushButton(tr("&Build Missing Images"), this))
    , m_cancelButton(new QPushButton(tr("&Cancel Build"), this))
    , m_recheck(new QPushButton(tr("Check &Again"), this))
{
    setObjectName(u"firstRunDialog"_s);
    setWindowTitle(tr("Set Up Sandbox Studio"));

    auto *intro = new QLabel(tr("Sandbox Studio runs code in containers. It needs a running "
                                "container engine and one sandbox image per language."),
                             this);
    intro->setWordWrap(true);
    m_summary->setObjectName(u"firstRunSummary"_s);
    m_summary->setAccessibleName(tr("Engine summary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto setupTree = [](QTreeWidget *tree, const QString &name, const QString &first) {
        tree->setObjectName(name);
        tree->setRootIsDecorated(false);
        tree->setColumnCount(2);
        tree->setHeaderLabels({first, tr("Status")});
        tree->header()->setSectionResizeMode(NameColumn, QHeaderView::ResizeToContents);
        tree->header()->setStretchLastSection(true);
        tree->setWordWrap(true);
        tree->setSelectionMode(QAbstractItemView::NoSelection);
    };
    setupTree(m_engines, u"enginesView"_s, tr("Engine"));
    m_engines->setAccessibleName(tr("Container engines"));
    setupTree(m_imagesView, u"imagesView"_s, tr("Image"));
    m_imagesView->setAccessibleName(tr("Sandbox images"));

    m_progress->setObjectName(u"buildProgress"_s);
    m_progress->setAccessibleName(tr("Image build progress"));
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->hide();
    m_buildStatus->setObjectName(u"buildStatus"_s);
    m_buildStatus->setWordWrap(true);
    m_build->setObjectName(u"buildImagesButton"_s);
    m_build->setEnabled(false);
    m_cancelButton->setObjectName(u"cancelBuildButton"_s);
    m_cancelButton->hide();
    m_recheck->setObjectName(u"recheckButton"_s);
    connect(m_build, &QPushButton::clicked, this, &FirstRunDialog::buildMissingImages);
    connect(m_cancelButton, &QPushButton::clicked, this, &FirstRunDialog::cancelBuild);
    connect(m_recheck, &QPushButton::clicked, this, &FirstRunDialog::startDetection);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_recheck, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *buildRow = new QHBoxLayout;
    buildRow->addWidget(m_build);
    buildRow->addWidget(m_cancelButton);
    buildRow->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(new QLabel(tr("<b>Container engines</b>"), this));
    layout->addWidget(m_engines, 1);
    layout->addWidget(m_summary);
    layout->addWidget(new QLabel(tr("<b>Sandbox images</b>"), this));
    layout->addWidget(m_imagesView, 1);
    layout->addLayout(buildRow);
    layout->addWidget(m_progress);
    layout->addWidget(m_buildStatus);
    layout->addWidget(buttons);
    resize(680, 560);
}

FirstRunDialog::~FirstRunDialog()
{
    *m_alive = false;
    if (m_building)
        m_cancel.cancel();
}

QList<FirstRunDialog::Candidate> FirstRunDialog::defaultCandidates()
{
    QList<Candidate> list;
    const QString dockerHost = qEnvironmentVariable("DOCKER_HOST");
    list.append(
        {u"Docker"_s, dockerHost.isEmpty() ? u"unix:///var/run/docker.sock"_s : dockerHost});
    const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtimeDir.isEmpty() && ::geteuid() != 0)
        list.append({u"Podman"_s, u"unix://"_s + runtimeDir + u"/podman/podman.sock"_s});
    list.append({u"Podman"_s, u"unix:///run/podman/podman.sock"_s});
    return list;
}

QStringList FirstRunDialog::missingImages() const
{
    QStringList names;
    for (const ImageState &s : m_images)
        if (s.known && !s.present)
            names << s.recipe.name;
    return names;
}

std::shared_ptr<Engine> FirstRunDialog::imageEngine() const
{
    return m_engine ? m_engine : m_probedEngine;
}

void FirstRunDialog::startDetection()
{
    if (m_detecting || m_building)
        return;
    m_detecting = true;
    m_recheck->setEnabled(false);
    m_build->setEnabled(false);
    m_summary->setText(tr("Looking for container engines…"));
    m_engines->clear();
    m_imagesView->clear();

    auto future =
        QtConcurrent::run([candidates = m_candidates, recipes = m_recipes, engine = m_engine] {
            std::shared_ptr<Engine> probed;
            QList<Probe> probes;
            for (const Candidate &c : candidates)
                probes.append(probe(c, &probed));
            QList<ImageState> images;
            const std::shared_ptr<Engine> target = engine ? engine : probed;
            for (const ImageRecipe &r : recipes) {
                ImageState s{r, false, false};
                if (target) {
                    if (auto exists = target->runtime().imageExists(r.reference())) {
                        s.known = true;
                        s.present = *exists;
                    }
                }
                images.append(s);
            }
            return std::tuple{probes, images, probed};
        });
    future.then(
        this,
        [this](const std::tuple<QList<Probe>, QList<ImageState>, std::shared_ptr<Engine>> &result) {
            m_probedEngine = std::get<2>(result);
            onProbed(std::get<0>(result), std::get<1>(result));
        });
}

void FirstRunDialog::onProbed(const QList<Probe> &probes, const QList<ImageState> &images)
{
    m_probes = probes;
    m_images = images;
    m_detecting = false;
    m_recheck->setEnabled(true);
    showProbes();
    showImages();
    Q_EMIT detectionFinished();
}

void FirstRunDialog::showProbes()
{
    m_engines->clear();
    QStringList found;
    bool dockerAnswered = false;
    for (const Probe &p : std::as_const(m_probes)) {
        auto *item = new QTreeWidgetItem(m_engines);
        item->setText(NameColumn, p.candidate.product);
        QString status;
        if (p.reachable) {
            status = tr("Running: %1 at %2").arg(p.version, p.candidate.uri);
            found << p.version;
            dockerAnswered |= p.candidate.product == u"Docker";
            item->setIcon(NameColumn, style()->standardIcon(QStyle::SP_DialogApplyButton));
        } else if (p.present) {
            status = tr("Not answering at %1: %2\n%3").arg(p.candidate.uri, p.problem, p.hint);
            item->setIcon(NameColumn, style()->standardIcon(QStyle::SP_MessageBoxWarning));
        } else {
            status = tr("Not found (%1)\n%2").arg(p.candidate.uri, p.hint);
            item->setIcon(NameColumn, style()->standardIcon(QStyle::SP_MessageBoxInformation));
        }
        item->setText(StatusColumn, status);
        item->setToolTip(StatusColumn, status);
    }
    if (found.isEmpty()) {
        m_summary->setText(tr("No container engine answers. Install and start Docker (or "
                              "Podman) as shown above, then press Check Again."));
    } else if (!dockerAnswered) {
        m_summary->setText(tr("Found: %1. Runs use Docker's API; set the Podman socket as the "
                              "endpoint in Preferences ▸ Backend to use it.")
                               .arg(found.join(u", "_s)));
    } else {
        m_summary->setText(tr("Found: %1.").arg(found.join(u", "_s)));
    }
}

void FirstRunDialog::showImages(bool updateStatus)
{
    m_imagesView->clear();
    for (const ImageState &s : std::as_const(m_images)) {
        auto *item = new QTreeWidgetItem(m_imagesView);
        item->setText(NameColumn, s.recipe.name);
        item->setToolTip(NameColumn, s.recipe.description);
        item->setText(StatusColumn, !s.known    ? tr("Unknown (no engine answers)")
                                    : s.present ? tr("Present (%1)").arg(s.recipe.reference())
                                                : tr("Missing"));
    }
    const QStringList missing = missingImages();
    m_build->setEnabled(!missing.isEmpty() && !m_building);
    if (m_building || !updateStatus)
        return;
    if (!imageEngine())
        m_buildStatus->setText(tr("Images can be checked once an engine answers."));
    else if (missing.isEmpty())
        m_buildStatus->setText(tr("All sandbox images are present."));
    else
        m_buildStatus->setText(
            tr("Missing: %1. Building needs root and debootstrap and takes a few minutes per "
               "image (or run: sudo sandbox-studio images ensure %1).")
                .arg(missing.join(u' ')));
}

void FirstRunDialog::buildMissingImages()
{
    if (m_building || m_detecting || !imageEngine())
        return;
    m_queue = missingImages();
    if (m_queue.isEmpty())
        return;
    m_queueSize = int(m_queue.size());
    m_building = true;
    m_buildFailed = false;
    m_cancel = CancelToken();
    m_build->setEnabled(false);
    m_recheck->setEnabled(false);
    m_cancelButton->show();
    m_progress->setValue(0);
    m_progress->show();
    buildNext();
}

void FirstRunDialog::buildNext()
{
    if (m_queue.isEmpty() || m_cancel.isCancelled()) {
        m_building = false;
        m_cancelButton->hide();
        m_recheck->setEnabled(true);
        const bool ok = !m_buildFailed && !m_cancel.isCancelled();
        if (ok)
            m_progress->setValue(100);
        else if (!m_buildFailed)
            m_buildStatus->setText(tr("The build was cancelled."));
        showImages(/*updateStatus=*/ok);
        Q_EMIT buildFinished(ok);
        return;
    }
    const QString name = m_queue.takeFirst();
    const int index = m_queueSize - int(m_queue.size()) - 1;
    ImageRecipe recipe;
    for (const ImageState &s : std::as_const(m_images))
        if (s.recipe.name == name)
            recipe = s.recipe;

    QPointer<FirstRunDialog> self(this);
    auto progress = [self, index, count = m_queueSize](int pct, const QString &message) {
        QMetaObject::invokeMethod(
            self.data(),
            [self, index, count, pct, message] {
                if (self)
                    self->onBuildProgress(index, count, pct, message);
            },
            Qt::QueuedConnection);
    };
    onBuildProgress(index, m_queueSize, 0, tr("Starting"));
    auto future = QtConcurrent::run([engine = imageEngine(), recipe, progress, cancel = m_cancel] {
        ImageBuilder builder(engine->runtime());
        return builder.ensure(recipe, progress, cancel);
    });
    future.then(this, [this, name](const Result<QString> &result) { onBuildDone(name, result); });
}

void FirstRunDialog::onBuildProgress(int index, int count, int percent, const QString &message)
{
    if (!m_building)
        return;
    const int overall = (index * 100 + qBound(0, percent, 100)) / qMax(1, count);
    m_progress->setValue(qMax(m_progress->value(), overall));
    m_buildStatus->setText(tr("Image %1 of %2: %3% · %4")
                               .arg(index + 1)
                               .arg(count)
                               .arg(percent)
                               .arg(message.left(120)));
}

void FirstRunDialog::onBuildDone(const QString &name, const Result<QString> &result)
{
    if (result) {
        for (ImageState &s : m_images)
            if (s.recipe.name == name) {
                s.known = true;
                s.present = true;
            }
    } else {
        m_buildFailed = true;
        m_queue.clear();
        m_buildStatus->setText(tr("Building the %1 image failed: %2")
                                   .arg(name, result.error().code == ErrorCode::Cancelled
                                                  ? tr("cancelled")
                                                  : result.error().message));
    }
    showImages(/*updateStatus=*/false);
    buildNext();
}

void FirstRunDialog::cancelBuild()
{
    if (!m_building)
        return;
    m_cancelButton->setEnabled(false);
    m_buildStatus->setText(tr("Cancelling…"));
    // Cancel callbacks may talk to the engine: not on the GUI thread.
    QThread *thread = QThread::create([token = m_cancel]() mutable { token.cancel(); });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}
