"""Runs a Python script as __main__ and ends the process without the
interpreter's finalization: usage: launch.py SCRIPT [ARGS...].

Why: PyTorch 2.15 on CPython 3.11 may abort at exit after a backward pass
("terminate called without an active exception"): the autograd device
thread drops its last GraphTask while the interpreter finalizes, takes the
GIL, is made to pthread_exit through a noexcept frame, and libstdc++
terminates. The script's own result is decided by then, so this launcher
runs the script, its atexit handlers, flushes, and exits with the script's
status through os._exit. Used for the twins' checks, which run without
transfold (whose exit handling os._exit would skip).
"""
import atexit
import os
import runpy
import sys
import traceback


def main():
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    code = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, int) and e.code is not None:
            print(e.code, file=sys.stderr)
    except BaseException:  # noqa: B036 -- any failure of the script is its exit status 1
        traceback.print_exc()
        code = 1
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


main()
