# The command's sim, model and info as an in-process call (included by
# _core.pyx): tools/cmd_capture.c runs `manycoll ARGS...` and hands back
# its output; manycoll.sim and manycoll.model read the --json records.

def command(args):
    """Runs `manycoll ARGS...` (sim, model or info; never run, bench,
    calibrate or tune, which start processes) in this process; returns
    (exit status, stdout, stderr). The GIL is held: one at a time."""
    args = ["manycoll"] + [str(a) for a in args]
    if len(args) < 2 or args[1] not in ("sim", "model", "info"):
        raise ArgumentError("command: only sim, model and info run in "
                            "process, not %r" % (args[1:2],))
    enc = [a.encode() for a in args]
    cdef int n = len(enc), i
    cdef char **argv = <char **>malloc((n + 1) * sizeof(char *))
    cdef char *out = NULL
    cdef char *err = NULL
    if argv == NULL:
        raise MemoryError()
    for i in range(n):
        argv[i] = PyBytes_AsString(enc[i])
    argv[n] = NULL
    try:
        rc = mc_cmd_capture(n, argv, &out, &err)
        if rc < 0 and out == NULL:
            raise MemoryError("command: cannot capture the output")
        return (rc, (out or b"").decode("utf-8", "replace"),
                (err or b"").decode("utf-8", "replace"))
    finally:
        free(out)
        free(err)
        free(argv)
