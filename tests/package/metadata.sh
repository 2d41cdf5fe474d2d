#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop entry and the AppStream metainfo pass their validators.
set -euo pipefail
DIR="$1"
command -v desktop-file-validate >/dev/null || { echo "FAIL: desktop-file-validate is missing (apt-get install desktop-file-utils)"; exit 1; }
command -v appstreamcli >/dev/null || { echo "FAIL: appstreamcli is missing (apt-get install appstream)"; exit 1; }
desktop-file-validate "$DIR/io.sandboxstudio.SandboxStudio.desktop"
# --no-net: the homepage is not fetched; --pedantic would flag style hints only.
appstreamcli validate --no-net --explain "$DIR/io.sandboxstudio.SandboxStudio.metainfo.xml"
echo "PASS: desktop entry and metainfo are valid"
