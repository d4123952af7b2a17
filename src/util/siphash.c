/* SipHash-2-4, written from the paper's description (see siphash.h). */
#include <string.h>

#include "util/siphash.h"

static uint64_t rotl(uint64_t x, int b)
{
    return (x << b) | (x >> (64 - b));
}

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

#define SIPROUND                                                             \
    do {                                                                     \
        v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);            \
        v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                               \
        v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                               \
        v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);            \
    } while (0)

uint64_t mc_siphash(const unsigned char key[16], const void *msg, size_t n)
{
    const unsigned char *m = msg;
    uint64_t k0 = le64(key), k1 = le64(key + 8);
    uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
    size_t full = n / 8 * 8;
    for (size_t i = 0; i < full; i += 8) {
        uint64_t w = le64(m + i);
        v3 ^= w;
        SIPROUND;
        SIPROUND;
        v0 ^= w;
    }
    unsigned char last[8] = {0};
    memcpy(last, m + full, n - full);
    uint64_t b = ((uint64_t)(n & 0xff) << 56) | le64(last);
    v3 ^= b;
    SIPROUND;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}
