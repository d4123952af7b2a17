/*
 * manycoll replay ARCHIVE --platform P [--map linear|FILE]
 *   [--algo COLL=ALGO[:k=v,...]]... [--compute-scale X] [--ranks N]
 *   [--json] [--trace OUT] [--best]
 * Parse and print only: the replay is src/replay (replay.h).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "sim_cmd.h"
#include "tools.h"

static int parse(int argc, char **argv, mc_rp_opts_t *o, sim_opts_t *so,
                 const char **archive, int *json, const char **trace)
{
    static const char *const valued[] = {"--platform", "--map", "--algo",
                                         "--compute-scale", "--ranks",
                                         "--trace", NULL};
    long long n;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--json") || !strcmp(a, "--best")) {
            *(a[2] == 'j' ? json : &o->best) = 1;
            continue;
        }
        if (a[0] != '-') {
            if (*archive)
                return mc_usage_error("replay", "one ARCHIVE only, not "
                                      "'%s' too", a);
            *archive = a;
            continue;
        }
        if (!v)
            return mc_opt_no_value("replay", a, valued);
        i++;
        if (!strcmp(a, "--platform"))
            o->platform = v;
        else if (!strcmp(a, "--map"))
            so->map = v;
        else if (!strcmp(a, "--trace"))
            *trace = v;
        else if (!strcmp(a, "--algo") && o->nalgos < MC_RP_MAX_ALGOS)
            o->algos[o->nalgos++] = v;
        else if (!strcmp(a, "--ranks")) {
            if (mc_opt_int("replay", a, v, 1, 1 << 22, &n))
                return 2;
            o->ranks = (int)n;
        } else if (!strcmp(a, "--compute-scale")) {
            if (mc_opt_num("replay", a, v, 0, 1e9, &o->compute_scale))
                return 2;
        } else
            return mc_usage_error("replay", "unknown option '%s'", a);
    }
    if (!*archive || !o->platform)
        return mc_usage_error("replay", "needs ARCHIVE and --platform P");
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    mc_rp_opts_t o;
    sim_opts_t so;
    const char *archive = NULL, *trace = NULL;
    int json = 0, rc;
    mc_rp_defaults(&o);
    mc_sim_defaults(&so);
    if ((rc = parse(argc, argv, &o, &so, &archive, &json, &trace)))
        return rc;
    mc_platform_t *p = NULL;
    mc_rp_trace_t *t = NULL;
    mc_rp_result_t r = {0};
    rc = mc_tool_platform("replay", o.platform, 0, &p);
    if (rc == MC_OK)
        rc = mc_rp_read(archive, &t);
    so.ranks = t ? (o.ranks ? o.ranks : t->ranks) : 0;
    if (rc == MC_OK && so.map)
        rc = mc_sim_map(&so, p);
    o.plat = p, o.cores = so.cores, o.trace = trace != NULL;
    if (rc == MC_OK && !mc_parse_only())
        rc = mc_rp_run(t, &o, &r);
    if (rc == MC_OK && !mc_parse_only())
        mc_rp_report(t, &r, stdout, json);
    if (rc == MC_OK && trace && !mc_parse_only() &&
        mc_sim_write_trace(p, r.st.trace, r.st.ntrace, trace))
        rc = MC_ERR_ARG;
    if (rc != MC_OK)
        fprintf(stderr, "manycoll replay: %s\n", mc_last_error());
    mc_rp_result_free(&r);
    mc_rp_trace_free(t);
    mc_platform_free(p);
    free(so.cores);
    return rc == MC_OK ? 0 : 1;
}
