/* The library and the header it was built with agree on the version. */
#include <stdio.h>

#include "manycoll.h"

int main(void)
{
    if (mc_version() != MANYCOLL_VERSION || MANYCOLL_VERSION < 100) {
        fprintf(stderr, "FAIL: mc_version() = %d, header %d\n", mc_version(),
                MANYCOLL_VERSION);
        return 1;
    }
    printf("test_version: %d.%d.%d\n", MANYCOLL_VERSION_MAJOR,
           MANYCOLL_VERSION_MINOR, MANYCOLL_VERSION_PATCH);
    return 0;
}
