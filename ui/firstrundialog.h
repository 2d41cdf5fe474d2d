// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "images/imagerecipe.h"
#include "session/engine.h"
#include "util/canceltoken.h"

#include <QDialog>
#include <QList>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QTreeWidget;

/// First-run check ("Help ▸ Check Setup…", shown at the first start): which container
/// engines answer (Docker, Podman), what is missing and how to get it, and which sandbox
/// images are missing, with a button that builds them (engine ImageBuilder: debootstrap,
/// needs root) under a progress bar. Every engine call runs on a worker thread.
class FirstRunDialog final : public QDialog
{
    Q_OBJECT

public:
    /// One engine socket to probe.
    struct Candidate
    {
        QString product; ///< "Docker" | "Podman"
        QString uri;     ///< "unix:///var/run/docker.sock", "tcp://host:2376"
    };
    /// What the probe found.
    struct Probe
    {
        Candidate candidate;
        bool present = false;   ///< the socket file exists (always true for tcp://)
        bool reachable = false; ///< it answered /_ping and /version
        QString version;        ///< "Docker 26.1.5" when reachable
        QString problem;        ///< the engine's error when present but not reachable
        QString hint;           ///< how to get or start it; empty when reachable
    };
    /// State of one image recipe on the engine the application uses.
    struct ImageState
    {
        sandbox::ImageRecipe recipe;
        bool known = false; ///< imageExists answered
        bool present = false;
    };

    /// engine is the application's engine (may be nullptr: images are then checked on the
    /// first reachable probed engine).
    explicit FirstRunDialog(std::shared_ptr<sandbox::Engine> engine, QWidget *parent = nullptr);
    ~FirstRunDialog() override;

    /// The sockets probed: DOCKER_HOST or /var/run/docker.sock; Podman's user socket
    /// ($XDG_RUNTIME_DIR/podman/podman.sock) and system socket (/run/podman/podman.sock).
    static QList<Candidate> defaultCandidates();
    /// Replaces the sockets to probe (tests). Call before startDetection().
    void setCandidates(const QList<Candidate> &candidates) { m_candidates = candidates; }
    /// Replaces the image recipes checked and built (default: the ImageCatalog's).
    void setRecipes(const QList<sandbox::ImageRecipe> &recipes) { m_recipes = recipes; }

    /// Probes the engines and the images on worker threads; detectionFinished() follows.
    void startDetection();
    bool isDetecting() const { return m_detecting; }
    QList<Probe> probes() const { return m_probes; }
    QList<ImageState> images() const { return m_images; }
    /// The names of images that are missing (and would be built).
    QStringList missingImages() const;

    /// Builds the missing images one after the other; buildFinished() follows.
    void buildMissingImages();
    /// Cancels a build in progress.
    void cancelBuild();
    bool isBuilding() const { return m_building; }

    QTreeWidget *enginesView() const { return m_engines; }
    QTreeWidget *imagesView() const { return m_imagesView; }
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *buildButton() const { return m_build; }
    QLabel *summaryLabel() const { return m_summary; }
    QLabel *buildStatusLabel() const { return m_buildStatus; }

Q_SIGNALS:
    void detectionFinished();
    /// ok: every missing image was built.
    void buildFinished(bool ok);

private:
    void onProbed(const QList<Probe> &probes, const QList<ImageState> &images);
    void showProbes();
    void showImages(bool updateStatus = true);
    void onBuildProgress(int index, int count, int percent, const QString &message);
    void onBuildDone(const QString &name, const sandbox::Result<QString> &result);
    void buildNext();
    std::shared_ptr<sandbox::Engine> imageEngine() const;

    std::shared_ptr<sandbox::Engine> m_engine;
    std::shared_ptr<sandbox::Engine> m_probedEngine; // first reachable probe, when m_engine is null
    QList<Candidate> m_candidates;
    QList<sandbox::ImageRecipe> m_recipes;
    QList<Probe> m_probes;
    QList<ImageState> m_images;
    QStringList m_queue;
    int m_queueSize = 0;
    bool m_detecting = false;
    bool m_building = false;
    bool m_buildFailed = false;
    sandbox::CancelToken m_cancel;
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);

    QLabel *m_summary;
    QTreeWidget *m_engines;
    QTreeWidget *m_imagesView;
    QLabel *m_buildStatus;
    QProgressBar *m_progress;
    QPushButton *m_build;
    QPushButton *m_cancelButton;
    QPushButton *m_recheck;
};
