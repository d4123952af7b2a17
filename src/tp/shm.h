/* The shared-memory transport (public to the other layers). */
#ifndef MC_TP_SHM_H
#define MC_TP_SHM_H

#include "tp/tp.h"

#define MC_SHM_JOB_MAX 200

/* Joins (creating if first) the segment of `job` as `rank` of `size`. */
int mc_shm_open(const char *job, int rank, int size, mc_tp_t **out);
/* ... the segment in descriptor fd (from mc_shm_job_fd, inherited from the
 * launcher): rank 0 creates it; closes fd */
int mc_shm_open_fd(const char *job, int fd, int rank, int size,
                   mc_tp_t **out);
/* An unnamed file for a job's segment, for a launcher to hand to its
 * ranks (they inherit it): a descriptor, or a negative status */
int mc_shm_job_fd(void);
/* Name of the segment of a job, for cleanup by a launcher. */
int mc_shm_segment_name(const char *job, char *buf, size_t len);
/* Unlinks the segments of `job` and of communicators split from it. */
void mc_shm_cleanup_job(const char *job);
/* Marks every open shm transport of this process as finalized (atexit). */
void mc_shm_leave_all(void);
/* What the transport of a job of `size` ranks would be (MPB size, line,
 * flags, coherence, single copy as far as it can be told without a job),
 * opening nothing: for reports (`manycoll info --tuning`). Its ops must
 * not be called. */
int mc_shm_describe(int size, mc_tp_t *out);
/* The progress function every wait calls (mc_set_progress) */
void mc_shm_set_progress(mc_progress_fn fn, void *arg);
/* Address of a rank's MPB (tests and tools). */
void *mc_shm_mpb(mc_tp_t *tp, int rank);

#endif
