/*
 * manycoll replay ARCHIVE --platform P [--map linear|FILE]
 *   [--algo COLL=ALGO[:k=v,...]]... [--compute-scale X] [--ranks N]
 *   [--json] [--trace OUT] [--best]
 * Parse and print only: the replay is src/replay (replay/data.h).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "sim_cmd.h"
#include "tools.h"

static const char *algos[MC_RP_MAX_ALGOS];

static int parse(int argc, char **argv, mc_rp_spec_t *s, int *json,
                 const char **trace)
{
    static const char *const valued[] = {"--platform", "--map", "--algo",
                                         "--compute-scale", "--ranks",
                                         "--trace", NULL};
    long long n;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--json") || !strcmp(a, "--best")) {
            *(a[2] == 'j' ? json : &s->best) = 1;
            continue;
        }
        if (a[0] != '-') {
            if (s->archive)
                return mc_usage_error("replay", "one ARCHIVE only, not "
                                      "'%s' too", a);
            s->archive = a;
            continue;
        }
        if (!v)
            return mc_opt_no_value("replay", a, valued);
        i++;
        if (!strcmp(a, "--platform") || !strcmp(a, "--map") ||
            !strcmp(a, "--trace"))
            *(a[2] == 'p' ? &s->platform : a[2] == 'm' ? &s->map : trace) = v;
        else if (!strcmp(a, "--algo") && s->nalgos < MC_RP_MAX_ALGOS)
            algos[s->nalgos++] = v;
        else if (!strcmp(a, "--ranks")) {
            if (mc_opt_int("replay", a, v, 1, 1 << 22, &n))
                return 2;
            s->ranks = (int)n;
        } else if (!strcmp(a, "--compute-scale")) {
            if (mc_opt_num("replay", a, v, 0, 1e9, &s->compute_scale))
                return 2;
        } else
            return mc_usage_error("replay", "unknown option '%s'", a);
    }
    if (!s->archive || !s->platform)
        return mc_usage_error("replay", "needs ARCHIVE and --platform P");
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    mc_rp_spec_t s = {.compute_scale = 1.0, .algos = algos};
    const char *trace = NULL;
    int json = 0, rc, n = 0;
    if ((rc = parse(argc, argv, &s, &json, &trace)))
        return rc;
    if (!mc_rp_have_otf2() && !mc_parse_only() && !mc_rp_is_ti(s.archive)) {
        fprintf(stderr, "manycoll replay: %s\n", MC_RP_NO_OTF2);
        return 2;
    }
    mc_platform_t *p = NULL;
    mc_rp_result_t r = {0};
    mc_rp_row_t *rows = NULL;
    rc = mc_tool_platform("replay", s.platform, 0, &p);
    if (rc == MC_OK && !mc_parse_only())
        rc = mc_rp_replay(&s, p, trace != NULL, &r, &rows, &n);
    if (rc == MC_OK && n > 0)
        mc_rp_print(rows, n, stdout, json);
    if (rc == MC_OK && trace && n > 0 &&
        mc_sim_write_trace(p, r.st.trace, r.st.ntrace, trace))
        rc = MC_ERR_ARG;
    if (rc != MC_OK)
        fprintf(stderr, "manycoll replay: %s\n", mc_last_error());
    free(rows);
    mc_rp_result_free(&r);
    mc_platform_free(p);
    return rc == MC_OK ? 0 : 1;
}
