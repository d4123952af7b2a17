/* manycoll info: the registry and the environment table. */
#include <stdio.h>
#include <string.h>

#include "select/registry.h"
#include "tools.h"
#include "util/config.h"

static void print_algo(const mc_algo_t *a)
{
    printf("  %-22s %-18s %s%s\n", mc_coll_name(a->coll), a->name, a->desc,
           (a->flags & MC_ALGO_COMMUTATIVE) ? " [commutative ops only]" : "");
    for (int i = 0; a->params[i].name; i++) {
        const mc_param_desc_t *p = &a->params[i];
        printf("  %-22s %-18s   %s=%lld (%lld..%lld): %s\n", "", "", p->name,
               (long long)p->def, (long long)p->min, (long long)p->max,
               p->help);
    }
}

int cmd_info(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--tuning"))
            return info_tuning(argc, argv);
    printf("algorithms (collective, name, description; parameters below):\n");
    for (const mc_algo_t *a = mc_algos; a->name; a++)
        print_algo(a);
    printf("\nenvironment variables (name, default, help):\n");
    for (const mc_envvar_t *e = mc_envvars; e->name; e++)
        printf("  %-16s %-6s %s\n", e->name, *e->def ? e->def : "-", e->help);
    info_mpi();
    return 0;
}
