/* Exits with status 3 on rank 2 after a barrier; the others exit 0.
 * `manycoll run` must exit 3 and name rank 2. */
#include <stdlib.h>

#include "manycoll.h"

int main(void)
{
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK)
        return 1;
    int me = mc_comm_rank(c);
    mc_barrier(c);
    mc_finalize();
    return me == 2 ? 3 : 0;
}
