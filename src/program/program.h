/* SPDX-License-Identifier: MIT */
/*
 * `copyperf program -- CMD`: a real program timed without and with the
 * preload shim, in interleaved pairs, and what its own call mix predicts.
 * The command line is src/builtin-program.c's; the runs are run.c's, the
 * pairs and their statistics ab.c's, the recorded mix's replay
 * prediction.c's, the shares of time in the copies cycles.c's, the output
 * report.c's.
 */
#ifndef COPYPERF_PROGRAM_H
#define COPYPERF_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "stats/stats.h"

enum program_format { PROGRAM_TABLE, PROGRAM_CSV, PROGRAM_JSON };

struct program_params {
	char **argv;              /* the command and its arguments */
	const char *path;         /* argv[0] as found in PATH */
	unsigned pairs;           /* timed runs of each side */
	int cpu;                  /* pinned there, or -1 */
	const char *shim;         /* the preload shim, an absolute path */
	bool control;             /* --aa: both sides without the shim */
	const char *stdin_path;   /* the command's standard input */
	const char *keep_dir;     /* the warm-ups' outputs are kept there, or NULL */
	bool check;               /* the two sides' outputs must be identical */
	bool record;              /* replay the command's recorded mix */
	bool counters;            /* the share of time in the copies */
	bool quiet;
	enum program_format format;
	const char *tmp_dir;      /* scratch for outputs and recordings */
};

/* The two sides: A without the shim, B with it (also without it under --aa). */
enum program_side { SIDE_WITHOUT, SIDE_WITH, SIDES };

/* One run's times, from the clock and from wait4(2). */
struct run_time {
	double wall, user, sys; /* seconds */
	int status;             /* wait status */
};

struct side_result {
	double *wall, *user, *sys; /* one per pair done */
	struct summary wall_s, user_s, sys_s;
	int bad_status;            /* the first run's wait status that was not exit 0, or 0 */
	unsigned bad_run;          /* which run that was: 0 the warm-up, i the i-th pair */
	char stderr_tail[200];     /* that run's last line on standard error */
};

/* What --record's replay of the command's own calls predicts, per kind and working set. */
#define PREDICTION_SETS 5
/* The working sets replayed at, in the order of struct prediction's ratios (prediction.c). */
extern const char *const prediction_sets[PREDICTION_SETS];

/*
 * The ways of calling replayed, the first the one a prediction needs: each
 * with its replay's options, its line in the table and its JSON member.
 */
#define PREDICTION_WAYS 4
#define PREDICTION_WAY_OPTIONS 2 /* the most options a way adds to copyperf -d */
struct prediction_way {
	const char *options[PREDICTION_WAY_OPTIONS]; /* the slots it does not use NULL */
	const char *line;
	const char *json;
};
extern const struct prediction_way prediction_ways[PREDICTION_WAYS];
struct prediction {
	const char *kind;          /* "memcpy" or "memmove" */
	unsigned long long calls;  /* recorded calls, 0 when not said */
	size_t processes;          /* that recorded them: the command's, and those it started */
	double mean_size;
	double small_share;        /* of calls at most 128 bytes */
	/* the C library's time over copyperf's, each way of calling; NaN if none */
	double ratio[PREDICTION_WAYS][PREDICTION_SETS];
};

/* The share of the command's samples in the copy routines, per side (--counters). */
struct cycle_shares {
	bool measured;
	char event[32];            /* the event sampled */
	double share[SIDES];       /* 0..1, NaN if not found */
	char why_not[200];         /* when not measured */
};

struct program_result {
	unsigned pairs_done;
	struct side_result side[SIDES];
	double ratio;              /* median wall time without over median with */
	struct summary pair_ratio; /* each pair's without / with */
	double p;                  /* Mann-Whitney, the two sides' wall times */
	const char *verdict;       /* "faster", "slower", "no difference" */
	const char *check;         /* "identical", "differ", "not checked" */
	char check_detail[160];    /* where they differ */
	bool failed;               /* a run exited non-zero, or the outputs differ */
	bool interrupted;
	struct prediction predicted[2];
	size_t n_predicted;
	char prediction_note[4400]; /* why there is none, or "" */
	struct cycle_shares cycles;
};

/* The side's name as the outputs print it. */
const char *program_side_name(const struct program_params *p, enum program_side s);

/* The command and its arguments joined by spaces into buf (size len), cut to fit. */
void program_command_text(const struct program_params *p, char *buf, size_t len);

/* run.c ----------------------------------------------------------------------------------- */

/*
 * Finds name as execvp(3) would (a name with a '/' as it is, else each PATH
 * directory): into found (size len).  Returns 0, or -1 with why.
 */
int program_find(const char *name, char *found, size_t len, char *why, size_t whylen);

/* Whether path is a preload shim this process can load.  Returns 0, or -1 with why. */
int program_shim_loads(const char *path, char *why, size_t whylen);

/*
 * Runs the command once on side s (with the shim in LD_PRELOAD or not; with
 * record_to, COPYPERF_RECORD set to it), standard output to out_path and
 * standard error to err_path (NULL: /dev/null), and waits for it.  Returns 0
 * with t filled, or -1 with why when it could not be started.
 */
int program_run(const struct program_params *p, enum program_side s, const char *record_to,
		const char *out_path, const char *err_path, struct run_time *t, char *why,
		size_t whylen);

/* ab.c ------------------------------------------------------------------------------------ */

/*
 * The warm-ups (outputs compared with --check, kept with --keep-output), then
 * the pairs, each side's order swapped from one pair to the next.  Returns 0
 * (r->failed may be set), or -1 with why when the command could not be run.
 */
int program_measure(const struct program_params *p, struct program_result *r, char *why,
		    size_t whylen);
void program_result_free(struct program_result *r);

/* prediction.c ---------------------------------------------------------------------------- */

/* --record: one more run recording the calls, their replay by copyperf -d. */
void program_predict(const struct program_params *p, struct program_result *r);

/* cycles.c -------------------------------------------------------------------------------- */

/* --counters: each side run once more under perf record. */
void program_cycle_shares(const struct program_params *p, struct program_result *r);

/* report.c -------------------------------------------------------------------------------- */

/* Writes the result in p->format.  Returns 0, or -1 when writing failed. */
int program_report(FILE *f, const struct program_params *p, const struct program_result *r);

#endif
