/*
 * A build without libotf2 (cmake -DMC_OTF2=OFF, or AUTO where pkg-config
 * finds no otf2): the replay runs, but no archive can be read. The
 * command says so in one line (MC_RP_NO_OTF2) and exits 2. CMake
 * compiles this file or read.c and defs.c, never both.
 */
#include "replay/replay.h"
#include "util/error.h"

int mc_rp_have_otf2(void)
{
    return 0;
}

int mc_rp_read(const char *archive, mc_rp_trace_t **t)
{
    if (t)
        *t = NULL;
    if (t && mc_rp_is_ti(archive))
        return mc_rp_read_ti(archive, t);
    return mc_error(MC_ERR_UNSUPPORTED, "replay of '%s': %s",
                    archive ? archive : "(null)", MC_RP_NO_OTF2);
}
