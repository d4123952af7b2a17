/* The library's version (manycoll.h: MANYCOLL_VERSION as built). */
#include "manycoll.h"

int mc_version(void)
{
    return MANYCOLL_VERSION;
}
