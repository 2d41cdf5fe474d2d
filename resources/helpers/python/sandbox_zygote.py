# SPDX-License-Identifier: GPL-3.0-or-later
"""Sandbox Studio's preloaded Python interpreter (a "zygote"), started by the sandbox agent.

    python3 /sandbox/.sandbox/python/sandbox_zygote.py MODULE...

fd 3 is a SOCK_SEQPACKET socket to the agent (engine/agent/protocol.h, "Zygotes"). The
zygote imports MODULE... (numpy, pandas, matplotlib.pyplot, sandbox_mpl by default), draws
and discards one figure so fonts and the PNG writer are loaded, checks that it holds no
thread and no descriptor but 0-3, makes itself non-dumpable (runs cannot ptrace it or
write its memory), ignores every catchable signal, and answers {"ready": ...}.

It never runs user code. On b"spare" it forks twice: the grandchild (the "spare") is
re-parented to the agent (a child subreaper), so the agent reaps it, times it and kills
its process group exactly as a program it exec'd itself. The spare's end of a fresh
socket pair goes to the agent with its pid. The agent sends one job to a spare: a JSON
object {"argv": ["python3", "main.py", ...], "env": [...], "cwd": "/sandbox"} with the
descriptors [stdin, stdout, stderr, status]. The spare then becomes that run: new session,
the run's descriptors only, signal dispositions of a fresh interpreter, dumpable again,
the run's environment and working directory, reseeded random generators, a fresh
__main__ module, and `python3 FILE ARGS` semantics for exit codes and tracebacks. It
closes the status descriptor just before the program's first line (the agent reads EOF:
started) or writes the agent's exec-failure record there when it could not start.
"""
import gc
import json
import os
import signal
import socket
import sys
import threading
import time

_CTRL_FD = 3
_started = time.monotonic()


def _log(msg):
    try:
        os.write(2, ("sandbox-zygote: %s\n" % msg).encode("utf-8", "replace"))
    except OSError:
        pass


def _prctl_dumpable(value):
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_DUMPABLE = 4
    return libc.prctl(PR_SET_DUMPABLE, value, 0, 0, 0) == 0


def _warm_up():
    """Touches the lazily loaded parts of what a typical analysis uses."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        import io

        from matplotlib.figure import Figure

        mpl = sys.modules.get("sandbox_mpl")
        save = getattr(mpl, "_original_savefig", Figure.savefig)
        fig = plt.figure()
        ax = fig.add_subplot()
        ax.plot([0, 1, 2], [1, 3, 2], label="x")
        ax.bar([0, 1], [1, 2])
        ax.set_title("warm-up")
        ax.set_xlabel("x")
        ax.legend()
        fig.tight_layout()
        save(fig, io.BytesIO(), format="png", dpi=fig.dpi)
        pd = sys.modules.get("pandas")
        if pd is not None:
            # pandas' plotting backend (found through entry points once, then cached) and
            # its matplotlib converters load on the first DataFrame.plot.
            fig2, ax2 = plt.subplots(figsize=(6, 4))
            s = pd.Series([3, 1, 2], index=["a", "b", "c"]).sort_values(ascending=False)
            s.plot(kind="bar", ax=ax2, color="steelblue")
            pd.DataFrame({"x": [1, 2], "y": [2, 1]}).plot(x="x", y="y", ax=ax2)
            fig2.tight_layout()
            save(fig2, io.BytesIO(), format="png", dpi=fig2.dpi)
        plt.close("all")
        # Loaded fonts keep their files open; a run must not share (or lose) a descriptor
        # of the zygote's, so drop them: the font list, the costly part, stays.
        from matplotlib import font_manager

        font_manager._get_font.cache_clear()
        gc.collect()
    pd = sys.modules.get("pandas")
    if pd is not None:
        import io

        df = pd.read_csv(io.StringIO("a,b,c\n1,2,x\n1,3,y\n2,4,x\n"))
        df.groupby("a")["b"].agg(["sum", "mean"]).to_string()
        df.describe().round(2).to_string()
        df.pivot(index="a", columns="c", values="b").to_string()
        f"{df['b'].sum():,}"


def _preload(modules):
    import importlib

    for name in modules:
        importlib.import_module(name)
    _warm_up()


def _descriptors():
    """fd -> what it is, without the listing's own descriptor."""
    out = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            out[int(name)] = os.readlink("/proc/self/fd/" + name)
        except OSError:
            pass
    return out


def _serve(ctrl, preloaded_ms):
    """The zygote's loop. Returns only in a spare: its socket to the agent."""
    ctrl.send(json.dumps({"ready": True, "pid": os.getpid(), "preload_ms": preloaded_ms,
                          "modules": len(sys.modules)}).encode())
    while True:
        try:
            msg = ctrl.recv(4096)
        except InterruptedError:
            continue
        if not msg:
            os._exit(0)  # the agent is gone
        if msg != b"spare":
            _log("unknown request %r" % msg[:40])
            continue
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                grandchild = os.fork()
                if grandchild:
                    os.write(w, b"%d" % grandchild)
                    os._exit(0)
                # The spare: orphaned at once, adopted by the agent (its subreaper).
                os.close(r)
                os.close(w)
                ctrl.detach()
                os.close(_CTRL_FD)
                mine.close()
                return theirs
            except BaseException as exc:  # never fall back into the zygote's loop
                _log("spare fork failed: %r" % (exc,))
                os._exit(70)
        os.close(w)
        os.waitpid(pid, 0)
        spare = os.read(r, 32)
        os.close(r)
        theirs.close()
        try:
            if spare:
                socket.send_fds(ctrl, [json.dumps({"spare": int(spare)}).encode()],
                                [mine.fileno()])
            else:
                ctrl.send(json.dumps({"error": "fork failed"}).encode())
        finally:
            mine.close()


def _fresh_signals():
    """The dispositions `python3 file.py` starts with."""
    for sig in signal.valid_signals():
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError, RuntimeError):
            pass
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def _fail(status, stage, err, code):
    """The agent's exec-failure record: struct {int stage; int err;} (1 = cwd)."""
    import struct

    try:
        os.write(status, struct.pack("ii", stage, err))
    finally:
        os._exit(code)


def _become_run(sock):
    """A spare waits for its job, then takes over the run's process. Returns the job."""
    while True:
        try:
            msg, fds, _flags, _addr = socket.recv_fds(sock, 1 << 20, 8)
            break
        except InterruptedError:
            continue
    if not msg or len(fds) != 4:
        os._exit(0)  # the agent dropped this spare
    job = json.loads(msg)
    sock.detach()
    stdin, stdout, stderr, status = fds
    # Only the run's descriptors (0-2) and the status pipe survive.
    for target, fd in ((0, stdin), (1, stdout), (2, stderr)):
        os.dup2(fd, target)
    if status < 3:
        status = os.dup(status)  # cannot happen (0-2 are taken) but stay correct
    keep = os.dup2(status, 100) if status != 100 else status
    os.closerange(3, keep)
    os.closerange(keep + 1, 1 << 16)
    status = keep
    os.setsid()
    _fresh_signals()
    _prctl_dumpable(1)

    # The agent forks a run only when its environment is the zygote's own (what a plain
    # run would start with), so os.environ is already right.
    cwd = job.get("cwd") or "/"
    try:
        os.chdir(cwd)
    except OSError as e:
        _fail(status, 1, e.errno or 0, 127)
    return job, status


_replaced_streams = []  # the zygote's own stdin object: never collected (it would close fd 0)


def _fresh_stdin():
    """sys.stdin as a fresh interpreter creates it for the run's fd 0 (create_stdio): the
    zygote's was made for a pipe, a run's may be /dev/null (seekable) or a pipe."""
    import io

    old = sys.stdin
    if old is None:
        return
    buf = io.open(0, "rb", buffering=-1, closefd=False)
    buf.raw.name = "<stdin>"
    text = io.TextIOWrapper(buf, encoding=old.encoding, errors=old.errors, newline="\n",
                            line_buffering=False, write_through=False)
    text.mode = "r"
    _replaced_streams.append(old)
    sys.stdin = sys.__stdin__ = text


def _reseed():
    import random

    random.seed()
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed()


def _exit_status(exc):
    """What `python3 file.py` exits with for SystemExit(exc.code) (handle_system_exit)."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        try:
            return int(code) & 0xFF
        except OverflowError:
            return 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:
        pass
    return 1


def _flush_std():
    """Flushes stdout and stderr as interpreter shutdown does; 120 when stdout fails."""
    status = 0
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name, None)
        if stream is None:
            continue
        try:
            stream.flush()
        except Exception:
            if name == "stdout":
                status = 120
    return status


def _finish(code, new_modules, interrupted):
    """Interpreter shutdown for the run's own objects, then exit without tearing down the
    preloaded modules (their finalizers are the zygote's, not the program's)."""
    try:
        threading._shutdown()
    except BaseException:
        pass
    import atexit

    atexit._run_exitfuncs()
    # Objects the program left behind are finalized, as at shutdown (unclosed files
    # flush their buffers): its __main__ and the modules it imported.
    # Like _PyModule_ClearDict: names with one leading underscore become None first,
    # then the others (but __builtins__), so late finalizers see what they would see.
    gc.collect()
    for name in ["__main__"] + sorted(new_modules()):
        d = getattr(sys.modules.get(name), "__dict__", None)
        if d is None or d is globals():
            continue
        for first in (True, False):
            for key in list(d):
                if key == "__builtins__" or not isinstance(key, str):
                    continue
                if first != (key.startswith("_") and not key.startswith("__")):
                    continue
                try:
                    d[key] = None
                except Exception:
                    pass
    gc.collect()
    flushed = _flush_std()
    if interrupted:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code or flushed)


def _run(job, status, zygote_modules):
    import builtins
    import importlib
    import types
    from importlib.machinery import SourceFileLoader

    argv = list(job["argv"])
    file = argv[1]
    path = os.path.abspath(file)
    sys.argv = argv[1:]
    sys.orig_argv = argv
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as e:
        os.close(status)
        sys.stderr.write("%s: can't open file %r: [Errno %d] %s\n"
                         % (argv[0], path, e.errno, e.strerror))
        sys.stderr.flush()
        os._exit(2)
    sys.path[0] = os.path.dirname(os.path.realpath(path))
    _fresh_stdin()
    importlib.invalidate_caches()

    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__cached__ = None
    main.__builtins__ = builtins
    main.__loader__ = SourceFileLoader("__main__", path)
    main.__spec__ = None
    main.__annotations__ = {}
    sys.modules["__main__"] = main
    _reseed()
    new_modules = lambda: set(sys.modules) - zygote_modules  # noqa: E731
    os.close(status)  # the agent reads EOF: the program starts now

    interrupted = False
    try:
        exec(compile(source, path, "exec", dont_inherit=True), main.__dict__)
        code = 0
    except SystemExit as e:
        code = _exit_status(e)
    except BaseException as e:
        # sys.excepthook sees the traceback of `python3 file.py`: without this frame.
        tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
        e.__traceback__ = tb
        sys.last_exc = e
        sys.last_type, sys.last_value, sys.last_traceback = type(e), e, tb
        try:
            sys.excepthook(type(e), e, tb)
        except BaseException:
            pass
        interrupted = isinstance(e, KeyboardInterrupt)
        code = 1
        del e, tb
    _finish(code, new_modules, interrupted)


def _main():
    modules = [m for m in sys.argv[1:] if m]
    environment = dict(os.environ)
    ctrl = socket.socket(fileno=_CTRL_FD)
    try:
        _preload(modules)
    except BaseException as exc:
        ctrl.send(json.dumps({"error": "preloading failed: %r" % (exc,)}).encode())
        raise
    if dict(os.environ) != environment:
        # A module changed the environment while being imported: runs get the original.
        os.environ.clear()
        os.environ.update(environment)
    problems = []
    if threading.active_count() != 1 or len(os.listdir("/proc/self/task")) != 1:
        problems.append("threads after preloading: %d" % len(os.listdir("/proc/self/task")))
    extra = {fd: what for fd, what in _descriptors().items() if fd > _CTRL_FD}
    if extra:
        problems.append("descriptors left open by preloading: %s" % extra)
    if not _prctl_dumpable(0):
        problems.append("cannot make the zygote non-dumpable")
    if problems:
        ctrl.send(json.dumps({"error": "; ".join(problems)}).encode())
        os._exit(3)
    for sig in signal.valid_signals():
        if sig in (signal.SIGKILL, signal.SIGSTOP, signal.SIGCHLD):
            continue
        try:
            signal.signal(sig, signal.SIG_IGN)
        except (OSError, ValueError, RuntimeError):
            pass
    gc.collect()
    gc.freeze()  # forked runs do not touch (copy) the zygote's objects when they collect
    zygote_modules = set(sys.modules)
    sock = _serve(ctrl, int((time.monotonic() - _started) * 1000))
    job, status = _become_run(sock)
    _run(job, status, zygote_modules)


if __name__ == "__main__":
    _main()
