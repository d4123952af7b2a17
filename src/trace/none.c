/* A build without OTF2: MC_TRACE's logs stay as they are, and this says
 * why (trace/trace.h). */
#include "trace/trace.h"
#include "util/error.h"

int mc_tset_write(const mc_tset_t *s)
{
    return mc_error(MC_ERR_ARG, "MC_TRACE=%s: this manycoll was built "
                    "without OTF2, so the logs (manycoll.R.mctrace) are "
                    "not made into an archive; install "
                    "libopen-trace-format2-dev and rebuild", s->dir);
}

int mc_trace_have_otf2(void)
{
    return 0;
}

int mc_trace_write_spans(const char *path, const mc_platform_t *p,
                         const mc_sim_trace_rec_t *t, size_t n,
                         uint64_t *clipped)
{
    (void)p, (void)t, (void)n;
    *clipped = 0;
    return mc_error(MC_ERR_ARG, "trace '%s': this manycoll was built "
                    "without OTF2; install libopen-trace-format2-dev and "
                    "rebuild, or write a Perfetto trace (a name not ending "
                    "in .otf2)", path);
}
