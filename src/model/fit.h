/*
 * Statistics and least-squares fits for calibration: summaries of samples
 * (mean, standard deviation, median) and the report's transfer functions
 *
 *     y(x) = slope*x + icept - inv/x     (multi-line T_N, I-state T_C)
 *     y(x) = slope*x + icept             (cached-line T_C)
 *
 * fitted to points (x_i, y_i) by ordinary least squares. Pure functions.
 */
#ifndef MC_MODEL_FIT_H
#define MC_MODEL_FIT_H

typedef struct mc_summary {
    int n;
    double mean, stdev, median, min, max;
} mc_summary_t;

/* Summary of v[0..n); NAN fields if n == 0. v is not modified. */
mc_summary_t mc_summarize(const double *v, int n);

typedef struct mc_fitres {
    double slope, icept, inv; /* inv = 0 for the linear form */
    double r2;                /* 1 - SS_res / SS_tot */
    double max_rel_err;       /* max |y_fit(x_i) - y_i| / y_i */
} mc_fitres_t;

/* Fits y = slope*x + icept [- inv/x if with_inv] to n points (x > 0).
 * Needs n >= 2 (linear) or n >= 3 (with inv) distinct x; otherwise, or if
 * the system is singular, a negative status with the reason. */
int mc_fit(const double *x, const double *y, int n, int with_inv,
           mc_fitres_t *out);

#endif
