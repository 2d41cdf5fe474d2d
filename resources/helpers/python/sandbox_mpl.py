# SPDX-License-Identifier: GPL-3.0-or-later
"""Matplotlib backend of Sandbox Studio: figures become PNG artifacts.

Selected with MPLBACKEND=module://sandbox_mpl. plt.show() writes every open figure to
$SANDBOX_OUTPUT_DIR (default /sandbox/output) as figure-NNN.png and closes it; figures
still open when the program ends are written at exit. A figure that the program saved
itself with savefig() is not written again, so each figure comes back once, in order.
"""
import atexit
import os

from matplotlib.backend_bases import _Backend
from matplotlib.backends.backend_agg import _BackendAgg
from matplotlib.figure import Figure

_OUT = os.environ.get("SANDBOX_OUTPUT_DIR", "/sandbox/output")
_counter = 0
_done = set()
_original_savefig = Figure.savefig
_display_hook = None


def set_display_hook(hook):
    """Kernels pass a function taking PNG bytes: figures are then displayed, not written."""
    global _display_hook
    _display_hook = hook


def flush_open_figures():
    """Shows and closes every open figure (a notebook cell's end)."""
    _flush(close=True)


def _mark_saved(self, *args, **kwargs):
    _done.add(id(self))
    return _original_savefig(self, *args, **kwargs)


Figure.savefig = _mark_saved


def _write(figure):
    global _counter
    if id(figure) in _done:
        return
    _done.add(id(figure))
    if _display_hook is not None:
        import io

        buffer = io.BytesIO()
        _original_savefig(figure, buffer, format="png", dpi=figure.dpi)
        _display_hook(buffer.getvalue())
        return
    _counter += 1
    os.makedirs(_OUT, exist_ok=True)
    path = os.path.join(_OUT, "figure-%03d.png" % _counter)
    _original_savefig(figure, path, format="png", dpi=figure.dpi)


def _flush(close):
    from matplotlib._pylab_helpers import Gcf

    managers = sorted(Gcf.get_all_fig_managers(), key=lambda m: m.num)
    for manager in managers:
        _write(manager.canvas.figure)
    if close:
        Gcf.destroy_all()


@_Backend.export
class _BackendSandbox(_BackendAgg):
    @staticmethod
    def show(*args, **kwargs):
        _flush(close=True)


atexit.register(lambda: _display_hook is None and _flush(close=False))
