/*
 * The command as a library call: runs `manycoll sim|model|info ...` in
 * this process and hands back what it printed. The Python package
 * (python/manycoll) gets the simulator's and the models' records this way:
 * the same code and the same --json fields as the command, without a
 * process per call.
 *
 * glibc documents stdout and stderr as ordinary variables that a program
 * may assign; they point at memory streams for the length of the call.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tools.h"

int mc_cmd_capture(int argc, char **argv, char **out, char **err)
{
    size_t olen = 0, elen = 0;
    *out = *err = NULL;
    FILE *o = open_memstream(out, &olen);
    FILE *e = o ? open_memstream(err, &elen) : NULL;
    if (!e) {
        if (o)
            fclose(o);
        free(*out);
        *out = NULL;
        return -1;
    }
    FILE *saved_out = stdout, *saved_err = stderr;
    fflush(stdout);
    fflush(stderr);
    stdout = o;
    stderr = e;
    int rc = mc_cmd_main(argc, argv);
    stdout = saved_out;
    stderr = saved_err;
    fclose(o); /* sets *out and *err, NUL-terminated */
    fclose(e);
    return rc;
}
