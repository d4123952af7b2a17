/*
 * The command's usage texts, one per subcommand, in one place: `manycoll
 * CMD --help` prints one, `manycoll help` lists them, `manycoll help --man`
 * renders them all to a man page (installed as manycoll.1) and the bash
 * completion (tools/manycoll.bash) reads the options from them. A usage
 * error ends with a pointer to the command's --help.
 */
#include <stdio.h>
#include <string.h>

#include "tools.h"

typedef struct help {
    const char *cmd;
    const char *summary; /* one line, for `manycoll help` */
    const char *text;    /* "usage: ..." and the options */
} help_t;

static const help_t helps[] = {
    {"run", "launch N ranks of a program on this machine",
     "usage: manycoll run -n N [--timeout S] [--] PROG [ARGS...]\n"
     "\n"
     "Starts N processes of PROG, each a rank of one manycoll job (shared\n"
     "memory), and waits for them. The first rank to die is named, and the\n"
     "others are told within a second.\n"
     "\n"
     "  -n, --np N       ranks to start (1 to 65536)\n"
     "  --timeout S      kill the job after S seconds (0: never; default 0)\n"
     "  --               ends the options: PROG may then start with '-'\n"
     "  -h, --help       this text\n"
     "\n"
     "Exit status: 0 when every rank exits 0; otherwise the first failing\n"
     "rank's status (128+signal when killed); 2 for a usage error.\n"},
    {"bench", "measure collectives on this machine",
     "usage: manycoll bench -n N --coll C [--algo A[:k=v,...]]... [--sizes LIST]\n"
     "                      [--dtype T] [--op O] [--iters I] [--warmup W]\n"
     "                      [--cache warm|cold] [--check] [--json]\n"
     "                      [--mode latency|persistent|overlap]\n"
     "\n"
     "Runs N ranks here and times C. Several --algo are measured\n"
     "interleaved (one call of each in turn), so they share the machine's\n"
     "noise and their ratio is fair.\n"
     "\n"
     "  -n N             ranks\n"
     "  --coll C         barrier, bcast, reduce, allreduce, allgather,\n"
     "                   alltoall, reduce_scatter_block, gather, scatter,\n"
     "                   scan, exscan, or a v-variant (allgatherv,\n"
     "                   alltoallv, gatherv, scatterv, reduce_scatter:\n"
     "                   uneven blocks around the size)\n"
     "  --algo A         an algorithm of C with parameters (manycoll info\n"
     "                   lists them); repeatable; default: what the library\n"
     "                   selects\n"
     "  --sizes LIST     bytes per rank, e.g. 8,1K,1M (default\n"
     "                   8,64,512,4K,32K,256K,1M)\n"
     "  --dtype T        int8 ... uint64, float32, float64, float16,\n"
     "                   bfloat16, complex64, complex128, float-int,\n"
     "                   double-int, 2int, long-int (default float64)\n"
     "  --op O           sum, prod, min, max, band, bor, bxor, land, lor,\n"
     "                   minloc, maxloc (default sum; reductions only)\n"
     "  --iters I        timed calls per size (default: 1000 up to 64K,\n"
     "                   100 up to 1M, 20 above)\n"
     "  --warmup W       untimed calls first (default: iters/10 + 1)\n"
     "  --cache warm|cold  cold: flush the buffers from the caches before\n"
     "                   every call\n"
     "  --check          verify every result (slower)\n"
     "  --json           one JSON object per algorithm and size\n"
     "  --mode M         latency: the blocking call (default); persistent:\n"
     "                   the blocking call and mc_<coll>_init's request\n"
     "                   (mc_start + mc_wait) interleaved, ratio =\n"
     "                   persistent / blocking; overlap: mc_i<coll> with\n"
     "                   computation as long as the call before mc_wait\n"
     "                   (OSU's metric): pure = i-call + wait alone,\n"
     "                   compute, total, overlap% = 100 (1 - (total -\n"
     "                   compute) / pure) clipped to 0..100, medians of the\n"
     "                   slowest rank; one --algo at most, warm cache\n"
     "  -h, --help       this text\n"
     "\n"
     "Columns, in microseconds. Every rank times each call from its own\n"
     "start to its own return; a call's time is its slowest rank's.\n"
     "  avg, min, max    of the timed calls' times\n"
     "  p50, p90, p99    percentiles of the same (min <= p50 <= max)\n"
     "  slowest          the rank whose own mean was highest (a rank that\n"
     "                   is always last points at placement or an\n"
     "                   algorithm's critical path)\n"
     "  ratio            with several --algo: the median, call by call, of\n"
     "                   this algorithm's time over the first --algo's\n"
     "                   (below 1: faster; 1.000 for the first)\n"},
    {"sim", "simulate collectives on a many-core chip",
     "usage: manycoll sim --platform P --coll C [--algo A[:k=v,...]]...\n"
     "                    [--sizes LIST] [--plot FILE] [--ranks N]\n"
     "                    [--grid WxH[@X,Y] | --map linear|FILE]\n"
     "                    [--root R] [--check] [--hier]\n"
     "                    [--json] [--trace FILE] [--traffic FILE] [--runs N]\n"
     "                    [--jitter SEED]\n"
     "                    [--contention all|none|LIST] [--dtype T] [--op O]\n"
     "                    [--iters N] [--warmup W] [--compute US]\n"
     "                    [--stack-size BYTES] [--lenient]\n"
     "       manycoll sim --platform P --app gcmc[:k=v,...] [--algo A]\n"
     "                    [--ranks N] [--map linear|FILE]\n"
     "       manycoll sim --platform P --coll pingpong [--pair A,B]\n"
     "                    [--sizes LIST] [--iters N] [--warmup W] [--json]\n"
     "\n"
     "Runs the library's algorithm code on a simulated chip and reports\n"
     "virtual time. Progress goes to stderr, results to stdout.\n"
     "\n"
     "  --platform P     scc48, scc48-cached, scc48-kohler, tilepro64,\n"
     "                   tilepro64-udn, xeonphi60, vscc240 (five SCCs behind\n"
     "                   one host), vscc240-routing, meshWxH (e.g.\n"
     "                   mesh16x16), or a platform file (docs/platforms.md)\n"
     "  --lenient        ignore keys of the platform file that are not\n"
     "                   known (named in a warning; default: an error)\n"
     "  --coll C         the collective (as bench)\n"
     "  --algo A         an algorithm with parameters; default: what the\n"
     "                   library selects on this platform. Several --algo\n"
     "                   (up to 8) run over the same sizes and print one\n"
     "                   table: lat_us and MB/s per algorithm and the\n"
     "                   ratio of its lat_us to the first's (--json: an\n"
     "                   object per algorithm and size)\n"
     "  --plot FILE      draw latency against size, a line per --algo, as\n"
     "                   a PNG (needs python3 and matplotlib)\n"
     "  --sizes LIST     bytes, e.g. 32,1K,1M (default 32,1K,32K,1M)\n"
     "  --ranks N        cores used (default: all)\n"
     "  --grid WxH[@X,Y] the ranks are the cores of a WxH block of tiles\n"
     "  --map linear|FILE  rank i on the i-th core that works (linear, the\n"
     "                   default: the platform's failed_cores skipped), or\n"
     "                   on the i-th core listed in FILE\n"
     "  --coll pingpong  two ranks send each message back and forth with\n"
     "                   the two-sided layer: half round trip and MB/s\n"
     "  --pair A,B       the pingpong's two cores (default 0,1)\n"
     "  --scheme S       two-sided messages between chips (Reble et al.):\n"
     "                   lp_rg local put / remote get (with the host's\n"
     "                   cache), rp_lg remote put / local get, lp_lg local\n"
     "                   put / local get by the host's virtual DMA, auto\n"
     "                   (lp_lg); sets MC_P2P_SCHEME\n"
     "  --pipe BYTES     two-sided messages above BYTES go in half chunks,\n"
     "                   two in flight (iRCCE's pipelining; 0 off, the\n"
     "                   default); sets MC_P2P_PIPE\n"
     "  --hier           the hierarchical collective (src/hier): the ranks\n"
     "                   of each chip a node, manycoll between chips (one\n"
     "                   leader per chip, or per slice of a long vector)\n"
     "  --hier-ml BYTES  --hier, with a leader per slice (every core with\n"
     "                   its peers on the other chips) from BYTES on\n"
     "  --root R         root of rooted collectives (default 0)\n"
     "  --dtype T, --op O  as bench (default uint8; float64 sum for\n"
     "                   reductions)\n"
     "  --iters N        N calls back to back in one simulation\n"
     "  --warmup W       W more calls before them, not counted\n"
     "  --compute US     call the non-blocking form: start, US simulated\n"
     "                   microseconds of computation, wait (0: start and\n"
     "                   wait alone); lat_us then includes the computation\n"
     "  --runs N         N independent simulations (jitter seeds 1..N):\n"
     "                   mean and variance of the latency\n"
     "  --jitter SEED    random delays on every core (0: none)\n"
     "  --stack-size B   each simulated core's stack (default 256K; 1M\n"
     "                   with AddressSanitizer); a core that runs past it\n"
     "                   stops the simulation with a message naming it\n"
     "  --contention X   all, none, or a list of mpb,link,mc (default: the\n"
     "                   platform's)\n"
     "  --check          verify every result (memory: the data of every\n"
     "                   core)\n"
     "  --trace FILE     every event of the first size, as one JSON object\n"
     "                   in the Chrome trace format (ui.perfetto.dev,\n"
     "                   chrome://tracing; tools/plot_trace.py); FILE\n"
     "                   named DIR/NAME.otf2: an OTF2 archive (Vampir)\n"
     "  --traffic FILE   bytes per rank pair of the first size, as JSON\n"
     "                   (tools/plot_traffic.py draws it)\n"
     "  --json           one JSON object per size (and --algo), a line each\n"
     "  --app gcmc[:k=v] the GCMC proxy of Kohler et al. on every core\n"
     "  -h, --help       this text\n"
     "\n"
     "Columns: lat_us (completion of the slowest core), bw_MBps (bytes per\n"
     "rank / lat), done_min_us, done_max_us, done_stdev_us (when each\n"
     "core finished), algorithm.\n"},
    {"calibrate", "measure this machine's cache-line costs (a profile)",
     "usage: manycoll calibrate [-o PROFILE.json] [--quick] [--name NAME]\n"
     "                          [--reps R]\n"
     "\n"
     "Runs the benchmarks of Ramos and Hoefler (2013) on this machine and\n"
     "writes a profile for `model` and `tune` (docs/profiles.md).\n"
     "\n"
     "  -o FILE          write the profile there (default: stdout)\n"
     "  --quick          fewer repetitions (15 instead of 1500)\n"
     "  --name NAME      the profile's name (default: the host's)\n"
     "  --reps R         repetitions per measurement (3 to 100000)\n"
     "  -h, --help       this text\n"},
    {"model", "performance models: cache-coherence and put/get (LogP)",
     "usage: manycoll model optimize --profile P --coll bcast-small|reduce-small|\n"
     "                      barrier --ranks LIST [--json] [variant options]\n"
     "       manycoll model predict --profile P --coll C --ranks LIST\n"
     "                      [--k 4,4,3 | --m M | --lines N] [--json]\n"
     "       manycoll model profile --profile P\n"
     "       manycoll model pingpong --profile P\n"
     "       manycoll model --platform P --coll bcast --algo A [--sizes LIST]\n"
     "                      [--unit bytes|lines] [--ranks N] [--root R]\n"
     "                      [--mode paper|layout] [--json] [--lenient]\n"
     "       manycoll model --platform P --table2 | --figure7 [--json]\n"
     "                      [--lenient]\n"
     "\n"
     "optimize: the tree or barrier parameters that minimise the model of\n"
     "Ramos and Hoefler at each rank count. predict: the model at given\n"
     "parameters. profile: what a profile holds. pingpong: the ping-pong\n"
     "models against the profile's measurements. --platform: the OC-Bcast\n"
     "paper's put/get models on a simulated platform.\n"
     "\n"
     "  --profile P      a profile name (sandybridge2s, xeonphi60) or file\n"
     "  --ranks LIST     e.g. 2-60 or 2,4,8\n"
     "  --k LIST, --m M, --lines N  tree arities, barrier width, lines\n"
     "variant options (defaults reproduce the paper's Appendix B):\n"
     "  --state E|I, --contention anchored|fit, --reduce-copy slope|full,\n"
     "  --rounds paper|schedule, --order nonincreasing|any, --dmax D,\n"
     "  --c NS (contention slope when the profile has none)\n"
     "  --lenient        with --platform: ignore keys of the platform file\n"
     "                   that are not known (named in a warning)\n"
     "  -h, --help       this text\n"},
    {"tune", "write a tuning file from a profile's models",
     "usage: manycoll tune --profile P (-o FILE | --install) [--ranks LO-HI]\n"
     "                     [--max-bytes B]\n"
     "\n"
     "Writes the rules (collective, ranks, size -> algorithm) where the\n"
     "profile's models predict something faster than the built-in rules;\n"
     "never a rule the models predict slower (docs/tuning.md).\n"
     "\n"
     "  --profile P      a profile (manycoll calibrate -o P.json)\n"
     "  -o FILE          write there ('-': stdout)\n"
     "  --install        write $XDG_CONFIG_HOME/manycoll/tuning.json, which\n"
     "                   every manycoll program then reads\n"
     "  --ranks LO-HI    rank counts to tune (default 2 to the CPUs here)\n"
     "  --max-bytes B    largest size to tune (default 1M)\n"
     "  -h, --help       this text\n"},
    {"info", "algorithms, parameters, variables, tuning and MPI libraries",
     "usage: manycoll info [--json]\n"
     "       manycoll info --tuning [-n N] [--json]\n"
     "       manycoll info --comm-bytes [--shm N,...] [--sim P[:N],...]\n"
     "                     [--bound B] [--lenient]\n"
     "\n"
     "Lists the algorithms with their parameters, the environment variables\n"
     "with their defaults and ranges, and the MPI interposition libraries\n"
     "built. --tuning: what each collective and size would run on N ranks\n"
     "here, and why (built-in rule, tuning file or variable).\n"
     "--comm-bytes: the bytes one communicator takes per rank, on shm with\n"
     "N processes and on simulated platforms, after choosing an algorithm,\n"
     "a barrier and an allreduce.\n"
     "\n"
     "  --json           one JSON object per line\n"
     "  --tuning         the selection table\n"
     "  -n N             ranks for --tuning (default: the CPUs here)\n"
     "  --comm-bytes     the memory of a communicator per rank\n"
     "  --shm N,...      ranks on shm for --comm-bytes (default 2,8,64;\n"
     "                   \"\" for none)\n"
     "  --sim P[:N],...  platforms (and ranks) for --comm-bytes (default\n"
     "                   mesh64x64; \"\" for none)\n"
     "  --bound B        exit 1 if a rank's private bytes exceed B\n"
     "  --lenient        ignore keys of --sim's platform files that are\n"
     "                   not known (named in a warning)\n"
     "  -h, --help       this text\n"},
    {"replay", "replay an MPI run's OTF2 trace on a simulated chip",
     "usage: manycoll replay ARCHIVE --platform P [--map linear|FILE]\n"
     "                       [--algo COLL=ALGO[:k=v,...]]... [--best]\n"
     "                       [--compute-scale X] [--ranks N] [--json]\n"
     "                       [--trace OUT]\n"
     "ARCHIVE is an OTF2 archive's anchor file (traces.otf2) or its\n"
     "directory, recorded with MC_MPI_TRACE or by Score-P, or a SimGrid\n"
     "time-independent trace (smpirun -trace-ti). Each simulated\n"
     "rank replays a recorded rank's calls: computation as a delay,\n"
     "collectives through manycoll's algorithms, messages through the\n"
     "two-sided layer. One row per call site (communicator, collective,\n"
     "size class): calls and predicted and recorded time (us) per rank\n"
     "that made such calls, bytes per call, the algorithm; subtotals per\n"
     "collective and the total per rank over all ranks, the share of the\n"
     "run spent communicating, and the time of calls it cannot replay\n"
     "(docs/replay.md). A build without OTF2 says so and exits 2.\n"
     "\n"
     "  --platform P       a platform's name, meshXxY, or a platform file\n"
     "  --map linear|FILE  which core each rank runs on (as sim's)\n"
     "  --algo C=A[:k=v]   force collective C's algorithm (repeatable)\n"
     "  --best             try every applicable algorithm per site: the\n"
     "                     fastest and its gain\n"
     "  --compute-scale X  the computation between calls times X (1)\n"
     "  --ranks N          N ranks, above the recorded size: weak scaling\n"
     "                     (docs/replay.md says which communicators extend)\n"
     "  --json             one object per site (with the ranks that made\n"
     "                     it), the last \"total\"\n"
     "  --trace OUT        the simulated operations as a Perfetto trace;\n"
     "                     OUT named DIR/NAME.otf2: an OTF2 archive\n"
     "  -h, --help         this text\n"},
    {"gcmc", "the GCMC application proxy (run it under manycoll run)",
     "usage: manycoll run -n N manycoll gcmc [--algo A[:k=v,...]]\n"
     "                    [--opts cycles=N,particles=N,atoms=N,kmax=N,kvecs=N]\n"
     "\n"
     "The grand-canonical Monte Carlo proxy of Kohler et al. (section V-B):\n"
     "local work and an allreduce of complex numbers per cycle. Rank 0\n"
     "prints one JSON line. manycoll sim runs it on a simulated chip (its\n"
     "--help says how).\n"
     "\n"
     "  --algo A         the allreduce's algorithm (default: selected)\n"
     "  --opts K=V,...   the proxy's sizes\n"
     "  -h, --help       this text\n"},
};

#define NHELPS (sizeof helps / sizeof *helps)

static const help_t *find(const char *cmd)
{
    for (size_t i = 0; i < NHELPS; i++)
        if (!strcmp(helps[i].cmd, cmd))
            return &helps[i];
    return NULL;
}

int mc_help_print(const char *cmd, FILE *f)
{
    const help_t *h = find(cmd);
    if (!h)
        return -1;
    fputs(h->text, f);
    return 0;
}

void mc_help_list(FILE *f)
{
    fprintf(f, "usage: manycoll <command> [options]\n"
               "       manycoll <command> --help\n"
               "       manycoll --version\n\ncommands:\n");
    for (size_t i = 0; i < NHELPS; i++)
        fprintf(f, "  %-10s %s\n", helps[i].cmd, helps[i].summary);
    fprintf(f, "\nmanycoll help --man prints this as a man page.\n");
}

/* troff: escape backslashes and a leading dot or quote */
static void man_text(const char *s, FILE *f)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", f);
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
        bol = *s == '\n';
    }
}

void mc_help_man(FILE *f, const char *version)
{
    fprintf(f, ".TH MANYCOLL 1 \"\" \"manycoll %s\" \"User Commands\"\n"
               ".SH NAME\nmanycoll \\- collective communication for "
               "many\\-core chips: run, measure, simulate, model, tune\n"
               ".SH SYNOPSIS\n.B manycoll\n.I command\n[\n.I options\n]\n"
               ".SH DESCRIPTION\n", version);
    for (size_t i = 0; i < NHELPS; i++)
        fprintf(f, ".TP\n.B %s\n%s\n", helps[i].cmd, helps[i].summary);
    fprintf(f, ".SH COMMANDS\n");
    for (size_t i = 0; i < NHELPS; i++) {
        fprintf(f, ".SS %s\n.nf\n", helps[i].cmd);
        man_text(helps[i].text, f);
        fprintf(f, ".fi\n");
    }
    fprintf(f, ".SH MPI PROGRAMS\nAn unmodified MPI program gets "
               "manycoll's collectives inside each node from "
               "libmanycoll_mpi, preloaded under the program's own "
               "launcher. There is one library per MPI family, "
               "libmanycoll_mpi_openmpi.so and libmanycoll_mpi_mpich.so "
               "(MPICH, Intel MPI), in PREFIX/lib; use the launcher of "
               "that MPI:\n.PP\n.nf\n"
               "mpirun.openmpi \\-x LD_PRELOAD=PREFIX/lib/"
               "libmanycoll_mpi_openmpi.so \\-np 4 ./app\n"
               "mpiexec.mpich \\-genv LD_PRELOAD PREFIX/lib/"
               "libmanycoll_mpi_mpich.so \\-n 4 ./app\n.fi\n.PP\n"
               ".B manycoll info\nlists the variants built, where they "
               "are, and the exact line for each. MC_MPI=0 turns the "
               "library off; MC_MPI_VERBOSE=1 prints where each "
               "communicator's collectives went. The calls it takes and "
               "which go to the MPI are in docs/mpi.md.\n");
    fprintf(f, ".SH ENVIRONMENT\nmanycoll info lists every variable the "
               "library reads, with its default and range.\n"
               ".SH FILES\n.I $XDG_CONFIG_HOME/manycoll/tuning.json\n"
               "the tuning file (manycoll tune \\-\\-install).\n"
               ".SH SEE ALSO\nThe guide, docs/guide.md, and docs/mpi.md in the "
               "source.\n");
}

/* Does argv ask for help? For run, only among its own options (PROG's
 * arguments are PROG's); for the others, anywhere. */
int mc_help_wanted(const char *cmd, int argc, char **argv)
{
    int run = !strcmp(cmd, "run");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return 1;
        if (run && (!strcmp(a, "--") || a[0] != '-'))
            return 0;
        if (run && (!strcmp(a, "-n") || !strcmp(a, "--np") ||
                    !strcmp(a, "--timeout")))
            i++;
    }
    return 0;
}
