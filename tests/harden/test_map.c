/*
 * The hash map of src/util/map.h, alone:
 *   - keys of every shape the project uses (small dense numbers, line
 *     addresses, multiples of 2^32, random 64-bit values, 0 and
 *     UINT64_MAX - 1) are all found again, with their values, after the
 *     table has doubled many times; a key not added is not found;
 *   - adding a key that is there returns its value, adding a new one a
 *     zeroed value;
 *   - removals in any order leave every other entry findable (the
 *     backward shift keeps clusters whole), also when the table is full
 *     of one long cluster;
 *   - the walk gives each entry once;
 *   - a table that cannot be allocated fails with MC_ERR_NOMEM and a
 *     message, and leaves the map as it was.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manycoll.h"
#include "util/map.h"

static int failed;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "line %d: %s\n", __LINE__, #cond);               \
            failed++;                                                        \
        }                                                                    \
    } while (0)

#define N 20000

static uint64_t rnd(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* the i-th key of shape s */
static uint64_t key_of(int s, uint64_t i)
{
    uint64_t seed = i;
    switch (s) {
    case 0: return i;                        /* peers, flag indices */
    case 1: return 0x7f0000000000ull / 64 + 3 * i; /* line numbers */
    case 2: return i << 32;                  /* only the high bits vary */
    default: return rnd(&seed) >> 1;         /* anything */
    }
}

static void shapes(void)
{
    for (int s = 0; s < 4; s++) {
        mc_map_t m;
        mc_map_init(&m, sizeof(uint64_t));
        for (uint64_t i = 0; i < N; i++) {
            uint64_t *v;
            CHECK(mc_map_put(&m, key_of(s, i), (void **)&v) == 1);
            CHECK(*v == 0);
            *v = i * 7 + 1;
        }
        CHECK(m.used == N && m.cap >= 2 * N);
        for (uint64_t i = 0; i < N; i++) {
            uint64_t *v = mc_map_get(&m, key_of(s, i));
            CHECK(v && *v == i * 7 + 1);
            uint64_t *w;
            CHECK(mc_map_put(&m, key_of(s, i), (void **)&w) == 0 && w == v);
        }
        CHECK(m.used == N);
        CHECK(mc_map_get(&m, key_of(s, N)) == NULL);
        CHECK(mc_map_bytes(&m) == m.cap * 16);
        mc_map_fini(&m);
        CHECK(m.cap == 0 && m.used == 0 && mc_map_get(&m, key_of(s, 1)) ==
                                               NULL);
    }
}

static void edges(void)
{
    mc_map_t m;
    mc_map_init(&m, 3); /* values of any size */
    unsigned char *v;
    CHECK(mc_map_get(&m, 0) == NULL); /* nothing allocated yet */
    CHECK(mc_map_remove(&m, 0) == 0);
    CHECK(mc_map_add(&m, 0, (void **)&v) == 1 && !v[0] && !v[1] && !v[2]);
    memcpy(v, "ab", 3);
    CHECK(mc_map_add(&m, UINT64_MAX - 1, (void **)&v) == 1);
    memcpy(v, "cd", 3);
    CHECK(!strcmp(mc_map_get(&m, 0), "ab"));
    CHECK(!strcmp(mc_map_get(&m, UINT64_MAX - 1), "cd"));
    CHECK(mc_map_get(&m, 1) == NULL);
    mc_map_fini(&m);
}

/* removes keys in a random order, checking every other after each */
static void removals(void)
{
    static uint64_t keys[2000];
    static char in[2000];
    uint64_t seed = 42;
    mc_map_t m;
    mc_map_init(&m, sizeof(uint64_t));
    for (int i = 0; i < 2000; i++) {
        uint64_t *v;
        keys[i] = i < 1000 ? (uint64_t)i : rnd(&seed) >> 2;
        CHECK(mc_map_add(&m, keys[i], (void **)&v) == 1);
        *v = keys[i] ^ 0x5555;
        in[i] = 1;
    }
    for (int n = 0; n < 1500; n++) {
        int i = (int)(rnd(&seed) % 2000);
        CHECK(mc_map_remove(&m, keys[i]) == in[i]);
        in[i] = 0;
        if (n % 100)
            continue;
        for (int j = 0; j < 2000; j++) {
            uint64_t *v = mc_map_get(&m, keys[j]);
            CHECK(in[j] ? v && *v == (keys[j] ^ 0x5555) : v == NULL);
        }
    }
    size_t pos = 0, count = 0, live = 0;
    uint64_t k;
    void *v;
    while (mc_map_next(&m, &pos, &k, &v)) {
        count++;
        CHECK(*(uint64_t *)v == (k ^ 0x5555));
    }
    for (int j = 0; j < 2000; j++)
        live += (size_t)in[j];
    CHECK(count == live && m.used == live);
    mc_map_fini(&m);
}

/* one cluster wrapping round the end of a small table: keys that all
 * start at its last place; every removal shifts the rest back */
static void cluster(void)
{
    enum { K = MC_MAP_MIN / 2 }; /* half full: no growth */
    uint64_t keys[K];
    int n = 0;
    for (uint64_t k = 0; n < K; k++)
        if (mc_map_hash(k, 64 - 4) == MC_MAP_MIN - 1) /* 16 places */
            keys[n++] = k;
    mc_map_t m;
    mc_map_init(&m, sizeof(uint64_t));
    uint64_t *v;
    for (int i = 0; i < K; i++) {
        CHECK(mc_map_add(&m, keys[i], (void **)&v) == 1);
        *v = (uint64_t)i;
    }
    CHECK(m.cap == MC_MAP_MIN && m.keys[0] && !m.keys[K]);
    for (int r = 0; r < K; r++) {
        CHECK(mc_map_remove(&m, keys[r]) == 1);
        for (int i = r + 1; i < K; i++) {
            v = mc_map_get(&m, keys[i]);
            CHECK(v && *v == (uint64_t)i);
        }
    }
    CHECK(m.used == 0);
    mc_map_fini(&m);
}

static void nomem(void)
{
    mc_map_t m;
    void *v;
    mc_map_init(&m, (size_t)1 << 60); /* no table of these fits */
    CHECK(mc_map_add(&m, 5, &v) == MC_ERR_NOMEM);
    CHECK(strstr(mc_last_error(), "out of memory") != NULL);
    CHECK(m.cap == 0 && m.used == 0 && mc_map_get(&m, 5) == NULL);
}

int main(void)
{
    shapes();
    edges();
    removals();
    cluster();
    nomem();
    if (failed)
        return 1;
    printf("test_map: keys of every shape found again after growth, "
           "removals keep clusters whole, the walk, out of memory\n");
    return 0;
}
