# SPDX-License-Identifier: GPL-3.0-or-later
"""Python kernel of Sandbox Studio: cells that keep state, without ZeroMQ.

Protocol (one JSON object per line):
  requests on stdin   {"type": "execute", "id": ID, "code": "..."}
                      {"type": "interrupt"}      stops the running cell, keeps the state
                      {"type": "shutdown"}
  events on stdout    {"type": "ready", "pid": P, "language": "python", "version": "3.13.5"}
                      {"type": "status", "id": ID, "state": "busy" | "idle"}
                      {"type": "stream", "id": ID, "name": "stdout" | "stderr", "text": "..."}
                      {"type": "display_data", "id": ID, "data": {MIME: value}}
                      {"type": "execute_result", "id": ID, "execution_count": N, "data": {...}}
                      {"type": "error", "id": ID, "ename": "...", "evalue": "...",
                       "traceback": ["..."]}
                      {"type": "execute_reply", "id": ID, "status": "ok" | "error",
                       "execution_count": N}
Message shapes follow Jupyter's messaging (execute_request/iopub/execute_reply);
binary MIME values such as image/png are base64 strings. The protocol goes to a
duplicate of the original stdout; user code's fd 1 and 2 are pipes turned into
"stream" events, so its output (and that of its child processes) never corrupts it.
"""
import ast
import base64
import codecs
import json
import os
import signal
import stat
import sys
import threading
import traceback
import types

_proto_fd = os.dup(1)
_proto_lock = threading.Lock()
_current = {"id": None}


def _send(message):
    data = (json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8", "replace")
    with _proto_lock:
        view = memoryview(data)
        while view:
            n = os.write(_proto_fd, view)
            view = view[n:]


_MARK = b"\x1e\x1fsandbox-sync\x1f\x1e"
_synced = {}


def _pump(fd, name, synced):
    """Turns bytes written to fd (a pipe) into stream events of the running cell. A sync
    mark in the byte stream tells the kernel that everything before it was passed on."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def emit(raw):
        text = decoder.decode(raw)
        if text:
            _send({"type": "stream", "id": _current["id"], "name": name, "text": text})

    pending = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return
        if not chunk:
            return
        pending += chunk
        while True:
            at = pending.find(_MARK)
            if at < 0:
                break
            emit(pending[:at])
            pending = pending[at + len(_MARK):]
            synced.set()
        keep = 0
        for k in range(len(_MARK) - 1, 0, -1):
            if pending.endswith(_MARK[:k]):
                keep = k
                break
        emit(pending[:len(pending) - keep])
        pending = pending[len(pending) - keep:]


def _sync_streams():
    """Waits until the pumps passed on every byte the cell wrote to fd 1 and 2."""
    for fd, synced in _synced.items():
        synced.clear()
        try:
            os.write(fd, _MARK)
        except OSError:
            continue
    for synced in _synced.values():
        synced.wait(2.0)


def _redirect(target_fd, name):
    read_end, write_end = os.pipe()
    os.dup2(write_end, target_fd)
    os.close(write_end)
    _synced[target_fd] = threading.Event()
    thread = threading.Thread(target=_pump, args=(read_end, name, _synced[target_fd]),
                              daemon=True)
    thread.start()
    return thread


_redirect(1, "stdout")
_redirect(2, "stderr")
sys.stdout = open(1, "w", encoding="utf-8", errors="replace", buffering=1, closefd=False)
sys.stderr = open(2, "w", encoding="utf-8", errors="replace", buffering=1, closefd=False)
_stdin = os.fdopen(os.dup(0), "r", encoding="utf-8")
os.close(0)
os.open(os.devnull, os.O_RDONLY)  # user code reading stdin gets EOF, not our requests
sys.stdin = open(0, "r", closefd=False)

_user_ns = types.ModuleType("__main__")
_user_ns.__dict__["__builtins__"] = __builtins__
sys.modules["__main__"] = _user_ns
_execution_count = 0


def _flush_streams():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _display_figures():
    """Shows the figures a cell left open, like Jupyter's inline backend."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    try:
        import sandbox_mpl

        sandbox_mpl.flush_open_figures()
    except Exception:
        pass


def _display_png(png_bytes):
    _send({"type": "display_data", "id": _current["id"],
           "data": {"image/png": base64.b64encode(png_bytes).decode("ascii"),
                    "text/plain": "<Figure>"}})


def _rich_data(value):
    data = {"text/plain": repr(value)}
    for method, mime in (("_repr_html_", "text/html"), ("_repr_png_", "image/png")):
        fn = getattr(value, method, None)
        if callable(fn):
            try:
                rendered = fn()
            except Exception:
                continue
            if rendered is None:
                continue
            if isinstance(rendered, bytes):
                rendered = base64.b64encode(rendered).decode("ascii")
            data[mime] = rendered
    return data


_FILE_LIMIT = 16 << 20
_FILES_PER_CELL = 50


_seen_files = {}


def _report_files():
    """Files the cell wrote to the output directory (new or changed since the kernel last
    looked) come back as "file" events. Timestamps alone are not enough: tmpfs stamps lag
    the clock by a few milliseconds."""
    out = os.environ.get("SANDBOX_OUTPUT_DIR", "/sandbox/output")
    sent = 0
    for root, _dirs, names in os.walk(out):
        for name in sorted(names):
            path = os.path.join(root, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            stamp = (info.st_mtime_ns, info.st_size)
            if not stat.S_ISREG(info.st_mode) or _seen_files.get(path) == stamp:
                continue
            _seen_files[path] = stamp
            if info.st_size > _FILE_LIMIT or sent >= _FILES_PER_CELL:
                continue
            with open(path, "rb") as f:
                data = f.read()
            _send({"type": "file", "id": _current["id"],
                   "name": os.path.relpath(path, "/sandbox"),
                   "data": base64.b64encode(data).decode("ascii")})
            sent += 1


def _report_files_quietly():
    """Remembers what the output directory already holds, without sending it."""
    out = os.environ.get("SANDBOX_OUTPUT_DIR", "/sandbox/output")
    for root, _dirs, names in os.walk(out):
        for name in names:
            path = os.path.join(root, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            _seen_files[path] = (info.st_mtime_ns, info.st_size)


def _execute(code):
    global _execution_count
    _execution_count += 1
    count = _execution_count
    try:
        tree = ast.parse(code, "<cell %d>" % count, "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
        body = compile(tree, "<cell %d>" % count, "exec", flags=flags)
        result = eval(body, _user_ns.__dict__)
        if isinstance(result, types.CoroutineType):
            import asyncio
            asyncio.run(result)
        if last is not None:
            value = eval(compile(last, "<cell %d>" % count, "eval", flags=flags), _user_ns.__dict__)
            if isinstance(value, types.CoroutineType):
                import asyncio
                value = asyncio.run(value)
            if value is not None:
                _user_ns.__dict__["_"] = value
                _flush_streams()
                _sync_streams()
                _send({"type": "execute_result", "id": _current["id"],
                       "execution_count": count, "data": _rich_data(value)})
        _flush_streams()
        _sync_streams()
        _display_figures()
        return "ok", count
    except BaseException as exc:  # KeyboardInterrupt (interrupt) and SystemExit included
        _flush_streams()
        _sync_streams()
        if isinstance(exc, SystemExit) and exc.code in (None, 0):
            return "ok", count
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        # Drop the kernel's own frames: the user's traceback starts at their cell.
        tb = [line for line in tb if 'sandbox_kernel.py"' not in line]
        _send({"type": "error", "id": _current["id"], "ename": type(exc).__name__,
               "evalue": str(exc), "traceback": tb})
        return "error", count


_pending = []
_pending_cv = threading.Condition()
_busy = {"value": False}


def _reader():
    """Reads requests; an interrupt arrives while a cell runs and becomes SIGINT."""
    for line in _stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError as exc:
            _send({"type": "protocol_error", "message": str(exc)})
            continue
        kind = request.get("type")
        if kind == "interrupt":
            if _busy["value"]:
                os.kill(os.getpid(), signal.SIGINT)
            continue
        with _pending_cv:
            _pending.append(request)
            _pending_cv.notify()
    with _pending_cv:
        _pending.append({"type": "shutdown"})
        _pending_cv.notify()


def _on_sigint(signum, frame):
    """An interrupt (from the reader thread or, through the sandbox agent, from outside)
    stops the running cell; one that arrives while the kernel is idle is ignored."""
    if _busy["value"]:
        raise KeyboardInterrupt


def main():
    import sandbox_mpl

    sandbox_mpl.set_display_hook(_display_png)
    signal.signal(signal.SIGINT, _on_sigint)
    threading.Thread(target=_reader, daemon=True).start()
    _report_files_quietly()
    _send({"type": "ready", "pid": os.getpid(), "language": "python",
           "version": sys.version.split()[0]})
    while True:
        with _pending_cv:
            while not _pending:
                _pending_cv.wait()
            request = _pending.pop(0)
        kind = request.get("type")
        if kind == "shutdown":
            break
        if kind != "execute":
            _send({"type": "protocol_error", "message": "unknown request %r" % kind})
            continue
        _current["id"] = request.get("id")
        try:
            # Busy before saying so: the engine interrupts once it read "busy".
            _busy["value"] = True
            _send({"type": "status", "id": _current["id"], "state": "busy"})
            status, count = _execute(request.get("code", ""))
        except KeyboardInterrupt:  # arrived between the cell and here
            status, count = "error", _execution_count
        _busy["value"] = False
        _flush_streams()
        _sync_streams()
        try:
            _report_files()
        except Exception as exc:  # a file vanished mid-read: never lose the reply
            _send({"type": "stream", "id": _current["id"], "name": "stderr",
                   "text": "sandbox: output files not collected: %s\n" % exc})
        _send({"type": "execute_reply", "id": _current["id"], "status": status,
               "execution_count": count})
        _send({"type": "status", "id": _current["id"], "state": "idle"})


if __name__ == "__main__":
    main()
