/*
 * manycoll sim --plot FILE: latency against message size, one line per
 * --algo, drawn by matplotlib. The script is here, given to python3 -c,
 * so that the command needs no file installed beside it; the points come
 * on its stdin, one "label<TAB>bytes<TAB>lat_us" line each.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim_cmd.h"

/* exit 3: no matplotlib (the message is the script's) */
static const char script[] =
    "import sys\n"
    "try:\n"
    "    import matplotlib\n"
    "    matplotlib.use('Agg')\n"
    "    import matplotlib.pyplot as plt\n"
    "except ImportError:\n"
    "    sys.stderr.write('manycoll sim: --plot needs matplotlib for python3'\n"
    "                     ' (pip install matplotlib, or apt-get install'\n"
    "                     ' python3-matplotlib)\\n')\n"
    "    sys.exit(3)\n"
    "if len(sys.argv) < 3:\n"
    "    sys.exit(0)\n"
    "lines = {}\n"
    "for row in sys.stdin:\n"
    "    label, b, lat = row.rstrip('\\n').split('\\t')\n"
    "    lines.setdefault(label, []).append((int(b), float(lat)))\n"
    "fig, ax = plt.subplots(figsize=(7, 4.5))\n"
    "for label, pts in lines.items():\n"
    "    pts.sort()\n"
    "    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker='o',\n"
    "            markersize=3, label=label)\n"
    "ax.set_xscale('log', base=2)\n"
    "ax.set_yscale('log')\n"
    "ax.set_xlabel('message size (bytes)')\n"
    "ax.set_ylabel('latency (us, slowest core)')\n"
    "ax.set_title(sys.argv[2], fontsize='medium')\n"
    "ax.grid(True, which='both', alpha=0.3)\n"
    "ax.legend(fontsize='small')\n"
    "fig.tight_layout()\n"
    "fig.savefig(sys.argv[1], dpi=120)\n";

/* python3 -c script [file title], points on its stdin; its exit status,
 * or -1 if it could not be started (127: no python3) */
static int python(const char *file, const char *title, const sim_point_t *pt,
                  int n)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(fd[0], 0);
        close(fd[0]);
        close(fd[1]);
        if (file)
            execlp("python3", "python3", "-c", script, file, title,
                   (char *)NULL);
        else
            execlp("python3", "python3", "-c", script, (char *)NULL);
        _exit(127);
    }
    close(fd[0]);
    /* a script that stops early must not kill the command */
    void (*was)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *f = fdopen(fd[1], "w");
    for (int i = 0; f && i < n; i++)
        fprintf(f, "%s\t%zu\t%.6g\n", pt[i].label, pt[i].bytes,
                pt[i].lat_us);
    if (f)
        fclose(f);
    else
        close(fd[1]);
    signal(SIGPIPE, was);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int report(int rc)
{
    if (rc == 127)
        fprintf(stderr, "manycoll sim: --plot needs python3 with matplotlib; "
                        "no python3 was found on PATH\n");
    else if (rc != 0 && rc != 3) /* 3: the script said why */
        fprintf(stderr, "manycoll sim: --plot: python3 failed (status %d)\n",
                rc);
    return rc ? -1 : 0;
}

int mc_sim_plot_check(void)
{
    return report(python(NULL, NULL, NULL, 0));
}

int mc_sim_plot(const char *file, const char *title, const sim_point_t *pt,
                int n)
{
    int rc = report(python(file, title, pt, n));
    if (rc == 0)
        fprintf(stderr, "manycoll sim: latency plot written to %s\n", file);
    return rc;
}
