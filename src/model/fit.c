/*
 * Sample summaries and small least-squares fits (fit.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit.h"
#include "util/error.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

mc_summary_t mc_summarize(const double *v, int n)
{
    mc_summary_t s = {.n = n, .mean = NAN, .stdev = NAN, .median = NAN,
                      .min = NAN, .max = NAN};
    if (n <= 0)
        return s;
    double *c = malloc((size_t)n * sizeof *c);
    if (!c)
        return s;
    memcpy(c, v, (size_t)n * sizeof *c);
    qsort(c, (size_t)n, sizeof *c, cmp_double);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += c[i];
    s.mean = sum / n;
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (c[i] - s.mean) * (c[i] - s.mean);
    s.stdev = n > 1 ? sqrt(ss / (n - 1)) : 0;
    s.median = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    s.min = c[0];
    s.max = c[n - 1];
    free(c);
    return s;
}

/* Solves the k x k system a * sol = b (k <= 3) by Gaussian elimination
 * with partial pivoting; -1 if singular. a and b are destroyed. */
static int solve(int k, double a[3][3], double b[3], double sol[3])
{
    double scale = 0;
    for (int r = 0; r < k; r++)
        for (int c = 0; c < k; c++)
            scale = fmax(scale, fabs(a[r][c]));
    for (int c = 0; c < k; c++) {
        int piv = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c]))
                piv = r;
        if (!(fabs(a[piv][c]) > 1e-13 * scale))
            return -1;
        for (int j = 0; j < k; j++) {
            double t = a[c][j];
            a[c][j] = a[piv][j];
            a[piv][j] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = c + 1; r < k; r++) {
            double f = a[r][c] / a[c][c];
            for (int j = c; j < k; j++)
                a[r][j] -= f * a[c][j];
            b[r] -= f * b[c];
        }
    }
    for (int r = k - 1; r >= 0; r--) {
        double s = b[r];
        for (int j = r + 1; j < k; j++)
            s -= a[r][j] * sol[j];
        sol[r] = s / a[r][r];
    }
    return 0;
}

int mc_fit(const double *x, const double *y, int n, int with_inv,
           mc_fitres_t *out)
{
    int k = with_inv ? 3 : 2;
    memset(out, 0, sizeof *out);
    out->r2 = out->max_rel_err = NAN;
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        if (!(x[i] > 0) || !isfinite(y[i]))
            return mc_error(MC_ERR_ARG, "fit: point %d (x = %g, y = %g) "
                            "needs x > 0 and a finite y", i, x[i], y[i]);
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= x[j] == x[i];
        distinct += !seen;
    }
    if (distinct < k)
        return mc_error(MC_ERR_ARG, "fit: %d distinct x values, the %s form "
                        "needs %d", distinct, with_inv ? "a*x+b-c/x" :
                        "a*x+b", k);
    /* normal equations over the basis (x, 1, -1/x) */
    double a[3][3] = {{0}}, b[3] = {0}, sol[3] = {0};
    for (int i = 0; i < n; i++) {
        double f[3] = {x[i], 1, -1 / x[i]};
        for (int r = 0; r < k; r++) {
            b[r] += f[r] * y[i];
            for (int c = 0; c < k; c++)
                a[r][c] += f[r] * f[c];
        }
    }
    if (solve(k, a, b, sol) != 0)
        return mc_error(MC_ERR_ARG, "fit: singular system (%d points)", n);
    out->slope = sol[0];
    out->icept = sol[1];
    out->inv = with_inv ? sol[2] : 0;
    double ym = 0, ssr = 0, sst = 0, mre = 0;
    for (int i = 0; i < n; i++)
        ym += y[i] / n;
    for (int i = 0; i < n; i++) {
        double f = out->slope * x[i] + out->icept - out->inv / x[i];
        ssr += (y[i] - f) * (y[i] - f);
        sst += (y[i] - ym) * (y[i] - ym);
        if (y[i] != 0)
            mre = fmax(mre, fabs(f - y[i]) / fabs(y[i]));
    }
    out->r2 = sst > 0 ? 1 - ssr / sst : NAN;
    out->max_rel_err = mre;
    return MC_OK;
}
