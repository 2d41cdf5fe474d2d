# SPDX-License-Identifier: GPL-3.0-or-later
"""Sandbox Studio's start-up hook for Python runs (on PYTHONPATH as sitecustomize).

plotly figures shown with fig.show() become artifacts in $SANDBOX_OUTPUT_DIR: a static
PNG when plotly can render one (kaleido installed), else a self-contained HTML page.
The hook costs nothing until the program imports plotly.
"""
import os
import sys

_OUT = os.environ.get("SANDBOX_OUTPUT_DIR", "/sandbox/output")
_count = [0]


def _install_plotly_renderer(pio):
    from plotly.io._base_renderers import ExternalRenderer

    class SandboxRenderer(ExternalRenderer):
        def render(self, fig_dict):
            _count[0] += 1
            os.makedirs(_OUT, exist_ok=True)
            base = os.path.join(_OUT, "plotly-%03d" % _count[0])
            try:
                data = pio.to_image(fig_dict, format="png")
                with open(base + ".png", "wb") as f:
                    f.write(data)
            except Exception:
                html = pio.to_html(fig_dict, include_plotlyjs=True, full_html=True)
                with open(base + ".html", "w", encoding="utf-8") as f:
                    f.write(html)

    pio.renderers["sandbox"] = SandboxRenderer()
    pio.renderers.default = "sandbox"


class _PlotlyFinder:
    """Installs the renderer right after plotly.io is first imported."""

    def find_spec(self, name, path=None, target=None):
        if name != "plotly.io":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        sys.meta_path.remove(self)
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            try:
                _install_plotly_renderer(module)
            except Exception as exc:  # never break the user's import
                print("sandbox: plotly renderer not installed: %s" % exc, file=sys.stderr)

        loader.exec_module = exec_module
        return spec


if "SANDBOX_OUTPUT_DIR" in os.environ:
    sys.meta_path.insert(0, _PlotlyFinder())
