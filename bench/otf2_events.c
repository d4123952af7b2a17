/*
 * otf2_events [N]: the recording's two floors (docs/benchmarks.md).
 * What OTF2's event writer costs for one recorded collective, as
 * libmanycoll_mpi's recording writes it at MPI_Finalize
 * (src/mpi/trace_log.c): Enter, MpiCollectiveBegin, MpiCollectiveEnd with
 * five manycoll::* attributes, Leave; N times (default 1,000,000) into a
 * scratch archive under /tmp, flushed to disk as the recording does.
 * Prints the CPU time per collective (the process's, not the wall's: on a
 * shared machine the wall clock also counts other programs' turns). Its
 * instructions: valgrind --tool=callgrind bench/otf2_events 100000.
 * Then what one read of the TSC costs (x86-64), which a recorded call
 * makes twice (src/mpi/trace_impl.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <otf2/otf2.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft,
                                OTF2_LocationRef loc, void *caller,
                                bool final)
{
    (void)u, (void)ft, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush = {.otf2_pre_flush = pre_flush};

static double cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void one(OTF2_EvtWriter *w, OTF2_AttributeList *al, uint64_t t)
{
    OTF2_EvtWriter_Enter(w, NULL, t, 2);
    OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
    OTF2_AttributeList_AddUint64(al, 0, 1);
    OTF2_AttributeList_AddStringRef(al, 1, 300);
    OTF2_AttributeList_AddStringRef(al, 2, 302);
    OTF2_AttributeList_AddUint8(al, 4, 0);
    OTF2_AttributeList_AddStringRef(al, 5, 304);
    OTF2_EvtWriter_MpiCollectiveEnd(w, al, t + 500,
                                    OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                                    OTF2_UNDEFINED_UINT32, 8, 8);
    OTF2_EvtWriter_Leave(w, NULL, t + 500, 2);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/otf2_events.%ld", (long)getpid());
    OTF2_Archive *ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE,
                                         1 << 20, 4 << 20,
                                         OTF2_SUBSTRATE_POSIX,
                                         OTF2_COMPRESSION_NONE);
    if (n < 1 || !ar) {
        fprintf(stderr, "usage: otf2_events [N >= 1] (archive at %s)\n",
                dir);
        return 2;
    }
    OTF2_Archive_SetFlushCallbacks(ar, &flush, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(ar);
    OTF2_Archive_OpenEvtFiles(ar);
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, 0);
    OTF2_AttributeList *al = OTF2_AttributeList_New();
    double t0 = cpu_ns();
    for (long i = 0; i < n; i++)
        one(w, al, 1000 + 1000 * (uint64_t)i);
    double t1 = cpu_ns();
    OTF2_Archive_CloseEvtWriter(ar, w);
    OTF2_Archive_CloseEvtFiles(ar);
    OTF2_Archive_Close(ar);
    OTF2_AttributeList_Delete(al);
    printf("otf2_events: %ld recorded collectives, %.0f ns of CPU each "
           "(4 events, 5 attributes)\n", n, (t1 - t0) / (double)n);
#if defined(__x86_64__)
    uint64_t sum = 0;
    t0 = cpu_ns();
    for (long i = 0; i < 10 * n; i++)
        sum += __rdtsc();
    t1 = cpu_ns();
    printf("otf2_events: a read of the TSC: %.1f ns of CPU%s\n",
           (t1 - t0) / (10.0 * (double)n), sum ? "" : " ");
#endif
    char rm[96];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    return system(rm) != 0;
}
