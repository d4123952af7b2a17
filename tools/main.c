/* The `manycoll` program: the command's entry point (manycoll.c). */
#include "tools.h"

int main(int argc, char **argv)
{
    return mc_cmd_main(argc, argv);
}
