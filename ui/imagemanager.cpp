// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagemanager.h"

#include "images/imagerecipe.h"
#include "images/imagetools.h"
#include "images/template.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace sandbox;
using namespace Qt::StringLiterals;

namespace {
constexpr int RefRole = Qt::UserRole + 1;
constexpr int SizeRole = Qt::UserRole + 2;
constexpr int KindRole = Qt::UserRole + 3;
} // namespace

ImageManager::ImageManager(std::shared_ptr<Engine> engine, QWidget *parent)
    : QWidget(parent)
    , m_engine(std::move(engine))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    m_list = new QTreeWidget(this);
    m_list->setObjectName(u"imageList"_s);
    m_list->setHeaderLabels({tr("Image"), tr("Size"), tr("Kind"), tr("Created")});
    m_list->setRootIsDecorated(false);
    m_list->setAccessibleName(tr("Images of the engine"));
    m_list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    layout->addWidget(m_list, 2);

    auto *row = new QHBoxLayout;
    auto button = [this, row](const QString &name, const QString &text) {
        auto *b = new QPushButton(text, this);
        b->setObjectName(name);
        row->addWidget(b);
        return b;
    };
    m_refreshButton = button(u"refreshImages"_s, tr("Refresh"));
    m_removeButton = button(u"removeImage"_s, tr("Remove…"));
    m_useButton = button(u"useImage"_s, tr("Use for Runs"));
    m_useButton->setToolTip(tr("Run code and notebooks on the selected image"));
    row->addStretch(1);
    layout->addLayout(row);

    // Build from a Dockerfile.
    auto *build = new QGroupBox(tr("Build from a Dockerfile"), this);
    auto *bf = new QFormLayout(build);
    auto *ctxRow = new QHBoxLayout;
    m_contextEdit = new QLineEdit(build);
    m_contextEdit->setObjectName(u"contextDir"_s);
    m_contextEdit->setAccessibleName(tr("Build context (a folder with a Dockerfile)"));
    m_contextEdit->setPlaceholderText(tr("Folder with a Dockerfile"));
    auto *browse = new QPushButton(tr("Browse…"), build);
    ctxRow->addWidget(m_contextEdit, 1);
    ctxRow->addWidget(browse);
    bf->addRow(tr("Context:"), ctxRow);
    m_tagEdit = new QLineEdit(build);
    m_tagEdit->setObjectName(u"buildTag"_s);
    m_tagEdit->setPlaceholderText(u"my-images/python-extra:1"_s);
    bf->addRow(tr("Tag:"), m_tagEdit);
    auto *buildRow = new QHBoxLayout;
    m_networkPicker = new QComboBox(build);
    m_networkPicker->setObjectName(u"buildNetwork"_s);
    m_networkPicker->setAccessibleName(tr("Network during RUN steps"));
    m_networkPicker->addItem(tr("No network (offline)"), u"none"_s);
    m_networkPicker->addItem(tr("Host network"), u"host"_s);
    m_buildButton = new QPushButton(tr("Build"), build);
    m_buildButton->setObjectName(u"buildButton"_s);
    buildRow->addWidget(m_networkPicker, 1);
    buildRow->addWidget(m_buildButton);
    bf->addRow(tr("RUN steps:"), buildRow);
    layout->addWidget(build);

    // Import a root filesystem, pull by name.
    auto *other = new QGroupBox(tr("Import or pull"), this);
    auto *of = new QFormLayout(other);
    auto *importRow = new QHBoxLayout;
    m_rootfsEdit = new QLineEdit(other);
    m_rootfsEdit->setObjectName(u"rootfsFile"_s);
    m_rootfsEdit->setAccessibleName(tr("Root filesystem tarball"));
    m_rootfsEdit->setPlaceholderText(tr("rootfs.tar (tar, tar.gz, tar.xz)"));
    auto *browseRootfs = new QPushButton(tr("Browse…"), other);
    m_importRefEdit = new QLineEdit(other);
    m_importRefEdit->setObjectName(u"importRef"_s);
    m_importRefEdit->setAccessibleName(tr("Image name to import as"));
    m_importRefEdit->setPlaceholderText(u"my-images/rootfs:1"_s);
    m_importButton = new QPushButton(tr("Import"), other);
    m_importButton->setObjectName(u"importButton"_s);
    importRow->addWidget(m_rootfsEdit, 2);
    importRow->addWidget(browseRootfs);
    importRow->addWidget(m_importRefEdit, 1);
    importRow->addWidget(m_importButton);
    of->addRow(tr("Root filesystem:"), importRow);
    auto *pullRow = new QHBoxLayout;
    m_pullEdit = new QLineEdit(other);
    m_pullEdit->setObjectName(u"pullRef"_s);
    m_pullEdit->setAccessibleName(tr("Image to pull"));
    m_pullEdit->setPlaceholderText(u"python:3.12-slim"_s);
    m_pullButton = new QPushButton(tr("Pull"), other);
    m_pullButton->setObjectName(u"pullButton"_s);
    pullRow->addWidget(m_pullEdit, 1);
    pullRow->addWidget(m_pullButton);
    of->addRow(tr("By name:"), pullRow);
    layout->addWidget(other);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(u"imageProgress"_s);
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->setVisible(false);
    layout->addWidget(m_progress);
    m_log = new QPlainTextEdit(this);
    m_log->setObjectName(u"imageLog"_s);
    m_log->setAccessibleName(tr("Build, import and pull log"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);
    m_log->setPlaceholderText(tr("Build, import and pull logs appear here."));
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_log, 1);
    m_status = new QLabel(this);
    m_status->setObjectName(u"imageStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    connect(m_refreshButton, &QPushButton::clicked, this, &ImageManager::refresh);
    connect(m_removeButton, &QPushButton::clicked, this, &ImageManager::askAndRemove);
    connect(m_useButton, &QPushButton::clicked, this, [this] {
        if (const QString ref = selectedRef(); !ref.isEmpty())
            Q_EMIT imageChosen(ref);
    });
    connect(browse, &QPushButton::clicked, this, &ImageManager::chooseContext);
    connect(browseRootfs, &QPushButton::clicked, this, &ImageManager::chooseRootfs);
    connect(m_buildButton, &QPushButton::clicked, this, [this] {
        buildFromDirectory(m_contextEdit->text().trimmed(), m_tagEdit->text().trimmed(),
                           m_networkPicker->currentData().toString() == u"host"_s);
    });
    connect(m_importButton, &QPushButton::clicked, this, [this] {
        importRootfs(m_rootfsEdit->text().trimmed(), m_importRefEdit->text().trimmed());
    });
    connect(m_pullButton, &QPushButton::clicked, this,
            [this] { pull(m_pullEdit->text().trimmed()); });
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &ImageManager::updateActions);
    m_drain.setInterval(50);
    connect(&m_drain, &QTimer::timeout, this, &ImageManager::drain);
    updateActions();
    if (!m_engine)
        setStatus(tr("No container engine is available: start Docker, then Refresh."), true);
}

ImageManager::~ImageManager() = default;

void ImageManager::setEngine(std::shared_ptr<Engine> engine)
{
    m_engine = std::move(engine);
    updateActions();
}

QStringList ImageManager::imageRefs() const
{
    QStringList out;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        out << m_list->topLevelItem(i)->data(0, RefRole).toString();
    return out;
}

qint64 ImageManager::sizeOf(const QString &ref) const
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        if (m_list->topLevelItem(i)->data(0, RefRole).toString() == ref)
            return m_list->topLevelItem(i)->data(0, SizeRole).toLongLong();
    return -1;
}

QString ImageManager::kindOf(const QString &ref) const
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        if (m_list->topLevelItem(i)->data(0, RefRole).toString() == ref)
            return m_list->topLevelItem(i)->data(0, KindRole).toString();
    return {};
}

void ImageManager::selectRef(const QString &ref)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_list->topLevelItem(i);
        item->setSelected(item->data(0, RefRole).toString() == ref);
        if (item->isSelected())
            m_list->setCurrentItem(item);
    }
}

QString ImageManager::selectedRef() const
{
    const auto items = m_list->selectedItems();
    return items.isEmpty() ? QString() : items.first()->data(0, RefRole).toString();
}

QString ImageManager::statusText() const
{
    return m_statusText;
}

void ImageManager::setStatus(const QString &text, bool error)
{
    m_statusText = text;
    m_status->setText(text);
    m_status->setStyleSheet(error ? u"color: #c0392b;"_s : QString());
}

void ImageManager::updateActions()
{
    const bool ready = m_engine && !m_busy;
    const bool selected = !selectedRef().isEmpty();
    m_refreshButton->setEnabled(ready);
    m_removeButton->setEnabled(ready && selected);
    m_useButton->setEnabled(selected);
    m_buildButton->setEnabled(ready);
    m_importButton->setEnabled(ready);
    m_pullButton->setEnabled(ready);
}

void ImageManager::start(const QString &what, std::function<void(Job &)> work)
{
    if (!m_engine) {
        setStatus(tr("No container engine is available: start Docker, then Refresh."), true);
        Q_EMIT operationFinished(false, m_statusText);
        return;
    }
    if (m_busy) {
        setStatus(tr("Busy: wait for the current operation to finish."), true);
        return;
    }
    m_busy = true;
    m_job = std::make_shared<Job>();
    if (!what.isEmpty()) {
        m_log->clear();
        m_progress->setVisible(true);
        m_progress->setRange(0, 0); // busy until a percentage arrives
        setStatus(what, false);
    }
    updateActions();
    // The worker holds the job and the engine; the view only ever reads the job.
    (void)QtConcurrent::run([job = m_job, engine = m_engine, work = std::move(work)] {
        work(*job);
        std::lock_guard lock(job->mutex);
        job->done = true;
    });
    m_drain.start();
}

void ImageManager::drain()
{
    if (!m_job)
        return;
    QStringList lines;
    int percent = -1;
    bool done = false;
    {
        std::lock_guard lock(m_job->mutex);
        lines.swap(m_job->lines);
        percent = m_job->percent;
        done = m_job->done;
    }
    for (const QString &l : std::as_const(lines))
        m_log->appendPlainText(l);
    if (percent >= 0) {
        m_progress->setRange(0, 100);
        m_progress->setValue(percent);
    }
    if (!done)
        return;
    m_drain.stop();
    const std::shared_ptr<Job> job = std::exchange(m_job, nullptr);
    m_busy = false;
    if (job->listing) {
        if (job->ok) {
            showImages(job->images);
            if (m_statusText.isEmpty() || m_statusText.startsWith(tr("No container")))
                setStatus(tr("%n image(s)", nullptr, int(job->images.size())), false);
        } else {
            setStatus(tr("Could not list the images: %1").arg(job->message), true);
        }
        updateActions();
        Q_EMIT refreshed(job->ok);
    } else {
        if (job->ok) {
            m_progress->setRange(0, 100);
            m_progress->setValue(100);
        }
        setStatus(job->message, !job->ok);
        updateActions();
        Q_EMIT operationFinished(job->ok, job->message);
        m_refreshAfter = true;
    }
    if (m_refreshAfter) {
        m_refreshAfter = false;
        refresh();
    }
}

void ImageManager::refresh()
{
    if (m_busy) {
        m_refreshAfter = true;
        return;
    }
    start({}, [engine = m_engine](Job &job) {
        auto images = engine->runtime().listImageInfos();
        std::lock_guard lock(job.mutex);
        job.listing = true;
        if (!images) {
            job.message = images.error().message;
            return;
        }
        job.ok = true;
        job.images = *images;
    });
}

void ImageManager::showImages(const QList<ImageInfo> &images)
{
    const QString selected = selectedRef();
    QStringList recipes;
    for (const ImageRecipe &r : ImageCatalog::instance().all())
        recipes << r.reference();
    m_list->clear();
    QList<QTreeWidgetItem *> items;
    for (const ImageInfo &info : images) {
        for (const QString &tag : info.tags) {
            auto *item = new QTreeWidgetItem;
            const QString kind =
                recipes.contains(tag) ? u"recipe"_s
                : info.labels.value(QLatin1String(templatelabels::Template)) == u"true"_s
                    ? u"template"_s
                    : u"image"_s;
            item->setText(0, tag);
            item->setText(1, humanSize(info.sizeBytes));
            item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
            item->setText(2,
                          kind == u"recipe"_s ? tr("language image")
                          : kind == u"template"_s
                              ? tr("template (%1)")
                                    .arg(info.labels.value(QLatin1String(templatelabels::Language)))
                              : tr("image"));
            item->setText(
                3, QDateTime::fromSecsSinceEpoch(info.created).toString(u"yyyy-MM-dd HH:mm"_s));
            item->setData(0, RefRole, tag);
            item->setData(0, SizeRole, info.sizeBytes);
            item->setData(0, KindRole, kind);
            item->setToolTip(0, info.id);
            items << item;
        }
    }
    std::sort(items.begin(), items.end(),
              [](QTreeWidgetItem *a, QTreeWidgetItem *b) { return a->text(0) < b->text(0); });
    m_list->addTopLevelItems(items);
    if (!selected.isEmpty())
        selectRef(selected);
}

void ImageManager::buildFromDirectory(const QString &contextDir, const QString &tag, bool host)
{
    if (contextDir.isEmpty() || tag.isEmpty()) {
        setStatus(tr("Name a context folder (with a Dockerfile) and a tag to build."), true);
        Q_EMIT operationFinished(false, m_statusText);
        return;
    }
    start(tr("Building %1…").arg(tag), [engine = m_engine, contextDir, tag, host](Job &job) {
        BuildOptions o;
        o.tag = tag;
        o.network = host ? NetworkMode::Host : NetworkMode::None;
        ImageTools tools(engine->runtime());
        auto built = tools.buildDockerfile(contextDir, o, [&job](const QString &line, int pct) {
            std::lock_guard lock(job.mutex);
            job.lines << line;
            if (pct >= 0)
                job.percent = pct;
        });
        std::lock_guard lock(job.mutex);
        job.ok = bool(built);
        job.message = built ? QObject::tr("Built %1").arg(tag) : built.error().message;
        if (!built && !built.error().detail.isEmpty())
            job.lines << built.error().detail;
    });
}

void ImageManager::importRootfs(const QString &tarFile, const QString &ref)
{
    if (tarFile.isEmpty() || ref.isEmpty()) {
        setStatus(tr("Name a root filesystem tarball and a reference to import it as."), true);
        Q_EMIT operationFinished(false, m_statusText);
        return;
    }
    start(tr("Importing %1…").arg(ref), [engine = m_engine, tarFile, ref](Job &job) {
        ImageTools tools(engine->runtime());
        auto imported = tools.importRootfs(tarFile, ref, {}, [&job](const QString &line, int pct) {
            std::lock_guard lock(job.mutex);
            job.lines << line;
            if (pct >= 0)
                job.percent = pct;
        });
        std::lock_guard lock(job.mutex);
        job.ok = bool(imported);
        job.message = imported ? QObject::tr("Imported %1").arg(ref) : imported.error().message;
    });
}

void ImageManager::pull(const QString &ref)
{
    if (ref.isEmpty()) {
        setStatus(tr("Name an image to pull, e.g. python:3.12-slim."), true);
        Q_EMIT operationFinished(false, m_statusText);
        return;
    }
    start(tr("Pulling %1…").arg(ref), [engine = m_engine, ref](Job &job) {
        ImageTools tools(engine->runtime());
        auto pulled = tools.pull(ref, [&job](const QString &line, int pct) {
            std::lock_guard lock(job.mutex);
            job.lines << line;
            if (pct >= 0)
                job.percent = pct;
        });
        std::lock_guard lock(job.mutex);
        job.ok = bool(pulled);
        job.message = pulled ? QObject::tr("Pulled %1").arg(ref) : pulled.error().message;
    });
}

void ImageManager::removeImage(const QString &ref)
{
    if (ref.isEmpty())
        return;
    start(tr("Removing %1…").arg(ref), [engine = m_engine, ref](Job &job) {
        auto removed = engine->runtime().removeImage(ref);
        std::lock_guard lock(job.mutex);
        job.ok = bool(removed);
        job.percent = 100;
        job.message = removed ? QObject::tr("Removed %1").arg(ref) : removed.error().message;
    });
}

void ImageManager::askAndRemove()
{
    const QString ref = selectedRef();
    if (ref.isEmpty())
        return;
    QString question = tr("Remove the image %1?").arg(ref);
    if (kindOf(ref) == u"recipe"_s)
        question += u"\n\n"_s + tr("It is a language's image: it is built again (a few minutes) "
                                   "the next time that language needs it.");
    if (QMessageBox::question(this, tr("Remove image"), question) == QMessageBox::Yes)
        removeImage(ref);
}

void ImageManager::chooseContext()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Build context (a folder with a "
                                                                   "Dockerfile)"));
    if (!dir.isEmpty())
        m_contextEdit->setText(dir);
}

void ImageManager::chooseRootfs()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Root filesystem tarball"), {},
        tr("Tar archives (*.tar *.tar.gz *.tgz *.tar.xz *.tar.bz2);;All files (*)"));
    if (!file.isEmpty())
        m_rootfsEdit->setText(file);
}
