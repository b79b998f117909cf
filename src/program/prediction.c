/* SPDX-License-Identifier: MIT */
/*
 * --record: what the program's own calls predict.
 *  1. One more run under the shim, untimed, with COPYPERF_RECORD: the shim
 *     writes each process's memcpy family's calls to MIX.PID.memcpy and its
 *     memmove's to MIX.PID.memmove, and the processes' mixes of each kind
 *     are merged into one (mix_merge.h): a command that is a script, or a
 *     server and its client, copies in all of them.
 *  2. Each mix replayed by this copyperf (`-d MIX.memcpy -r memcpy,
 *     copyperf_memcpy`, memmove's on memmove and copyperf_memmove) at the
 *     working sets of prediction_sets, as JSON read back; then again with
 *     --chain, each call waiting for the one before. Every replay sizes the
 *     sets from the last level this process found (llc_probe_hand_down).
 *  3. Per kind, working set and way of calling, the C library's median time
 *     per call over copyperf's: the micro-benchmark's prediction, beside the
 *     program's own. Calls that overlap (their throughput) and calls that
 *     wait (their latency) bound what a program sees: a decoder's next copy
 *     waits for what the last one copied, a serializer's does not.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "measure/call_mixes/distribution.h"
#include "measure/call_mixes/mix_merge.h"
#include "measure/call_mixes/workloads.h"
#include "measure/hardware/llc_probe.h"
#include "program.h"
#include "report/results_file.h"
#include "stats/stats.h"

/*
 * From every call's data at hand to every call's data in memory: a program's
 * copies lie somewhere between. Each set is replayed with the calls
 * independent and chained: a program whose next step waits on what it has
 * just copied (a decoder) sees the chained calls' latency. And both after
 * the caller's tests of each size: a program that reaches a size through
 * branches (a decoder reading a length bit by bit) leaves it in the branch
 * predictor's history, where a copy that tests the size finds it.
 */
const char *const prediction_sets[PREDICTION_SETS] = { "l1", "l2", "llc", "stream", "cold" };

const struct prediction_way prediction_ways[PREDICTION_WAYS] = {
	{ { NULL }, "calls independent:", "predicted_ratio" },
	{ { "--chain", NULL }, "each waiting for the one before (--chain):",
	  "predicted_ratio_chained" },
	{ { "--tested", NULL }, "after the caller's tests of each size (--tested):",
	  "predicted_ratio_tested" },
	{ { "--chain", "--tested" }, "both (--chain --tested):", "predicted_ratio_chained_tested" },
};

/* Runs this copyperf with args, its output to /dev/null.  Returns its exit status, or -1. */
static int run_self(char **args)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		execv("/proc/self/exe", args);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static double median_time(const struct result_set *s, const char *routine, const char *set)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct result_row *row = &s->rows[i];

		if (row->distribution && !strcmp(row->routine, routine) && row->working_set_name &&
		    !strcmp(row->working_set_name, set) && row->verified && row->n_samples)
			return median_of(row->samples, row->n_samples);
	}
	return NAN;
}

/* A -w list of the prediction sets: five short words. */
#define SETS_LEN 64

/*
 * The prediction sets that are working sets of their own here, as -w's list:
 * where two levels are the same size (a machine whose L2 is its last level),
 * -w refuses both, and the later one is left out (its ratio NaN); so is the
 * stream without with_stream (a mix whose calls are too small to walk one).
 */
static void distinct_sets(char *sets, size_t len, bool with_stream)
{
	uint64_t bytes[PREDICTION_SETS];
	char err[160];

	*sets = '\0';
	for (int k = 0; k < PREDICTION_SETS; k++) {
		bool own = (bytes[k] = working_set_bytes(prediction_sets[k], err, sizeof(err))) != 0;

		if (!with_stream && working_set_is_stream(prediction_sets[k]))
			continue;
		for (int j = 0; j < k && own; j++)
			own = !working_sets_coincide(prediction_sets[j], bytes[j], prediction_sets[k], bytes[k]);
		if (own)
			snprintf(sets + strlen(sets), len - strlen(sets), "%s%s", *sets ? "," : "",
				 prediction_sets[k]);
	}
}

/* A way's options as they would be typed: "", " --chain", " --chain --tested". */
static void way_options(const struct prediction_way *w, char *buf, size_t len)
{
	*buf = '\0';
	for (int i = 0; i < PREDICTION_WAY_OPTIONS && w->options[i]; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", w->options[i]);
}

/*
 * Steps 2 and 3 for one kind, one way of calling: ratios[k] for
 * prediction_sets[k].  Returns 0, or -1 with r->prediction_note saying why.
 */
static int replay_ratios(const struct program_params *p, const char *kind, const char *mix,
			 char *sets, const struct prediction_way *way, double *ratios,
			 struct program_result *r)
{
	char json[4096], routines[64], ours[32], why[160], options[32];
	char *args[] = { "copyperf", "-d", (char *)mix, "-r", routines, "-w", sets, "-n", "5",
			 "-f", "json", "-o", json, "-q", NULL, NULL, NULL };
	/* the way's options, then the NULL that ends the list */
	const size_t first_option = sizeof(args) / sizeof(args[0]) - PREDICTION_WAY_OPTIONS - 1;
	struct result_set set;
	int status, shown = 0;

	for (int i = 0; i < PREDICTION_WAY_OPTIONS; i++)
		args[first_option + i] = (char *)way->options[i];
	way_options(way, options, sizeof(options));
	snprintf(ours, sizeof(ours), "copyperf_%s", kind);
	snprintf(routines, sizeof(routines), "%s,%s", kind, ours);
	snprintf(json, sizeof(json), "%s/replay-%s.json", p->tmp_dir, kind);
	if (!p->quiet)
		shown = fprintf(stderr, "\rcopyperf program: replaying the recorded %s calls%s", kind,
				options);
	status = run_self(args);
	if (shown > 0)
		fprintf(stderr, "\r%*s\r", shown, "");
	if (status != 0) {
		snprintf(r->prediction_note, sizeof(r->prediction_note),
			 "the replay of %s (copyperf -d%s) exited with status %d", mix, options,
			 status);
		return -1;
	}
	if (result_set_read(&set, json, why, sizeof(why))) {
		snprintf(r->prediction_note, sizeof(r->prediction_note), "%s", why);
		return -1;
	}
	for (int k = 0; k < PREDICTION_SETS; k++)
		ratios[k] = median_time(&set, kind, prediction_sets[k]) /
			    median_time(&set, ours, prediction_sets[k]);
	result_set_free(&set);
	unlink(json);
	return 0;
}

/*
 * Steps 2 and 3 for one kind, at sets[1] (the -w list with the stream) or,
 * where the mix cannot walk a stream, sets[0].  Returns 0, or -1 with
 * r->prediction_note saying why; where only another way's replay failed (a
 * chained or tested one), its ratios are NaN and the note says why.
 */
static int replay(const struct program_params *p, struct prediction *d, const char *mix,
		  char (*sets)[SETS_LEN], struct program_result *r)
{
	char why[160];
	struct distribution dist;
	bool streams;

	if (distribution_read(&dist, mix, mix, why, sizeof(why))) {
		snprintf(r->prediction_note, sizeof(r->prediction_note), "%s", why);
		return -1;
	}
	d->mean_size = dist.mean_size;
	d->small_share = 0;
	for (size_t i = 0; i < dist.n_sizes; i++)
		if (dist.sizes[i].value <= 128)
			d->small_share += dist.sizes[i].p;
	streams = call_list_stream_fits(&dist, working_set_bytes("stream", why, sizeof(why)));
	distribution_free(&dist);
	/* calls too small to walk a stream (a mix of mostly empty copies): the sets without it, '-' */
	if (replay_ratios(p, d->kind, mix, sets[streams], &prediction_ways[0], d->ratio[0], r))
		return -1;
	for (int w = 1; w < PREDICTION_WAYS; w++)
		if (replay_ratios(p, d->kind, mix, sets[streams], &prediction_ways[w], d->ratio[w], r))
			for (int k = 0; k < PREDICTION_SETS; k++)
				d->ratio[w][k] = NAN;
	return 0;
}

/* Whether name is a process's recording of kind, as COPYPERF_RECORD=MIX.%p names it. */
static bool is_recording(const char *name, const char *kind)
{
	size_t n = strlen(name), k = strlen(kind);

	return !strncmp(name, "mix.", 4) && n > 4 + k + 1 && name[n - k - 1] == '.' &&
	       !strcmp(name + n - k, kind);
}

/*
 * Merges the processes' recordings of kind in p->tmp_dir into the one mix at
 * out, of *calls calls, removing them.  Returns how many processes recorded
 * calls of that kind: 0 for none, and on an error, with r->prediction_note
 * saying why.
 */
static size_t merge_processes(const struct program_params *p, const char *kind, const char *out,
			      unsigned long long *calls, struct program_result *r)
{
	char why[4000];
	DIR *dir = opendir(p->tmp_dir);
	struct dirent *e;
	char **paths = NULL;
	size_t n = 0, cap = 0;
	int error = dir ? 0 : errno;
	bool merged = false;

	while (!error && (errno = 0, e = readdir(dir)) != NULL) {
		if (!is_recording(e->d_name, kind))
			continue;
		if (n == cap) {
			char **grown = realloc(paths, (cap ? 2 * cap : 16) * sizeof(*paths));

			if (!grown) {
				error = ENOMEM;
				break;
			}
			paths = grown;
			cap = cap ? 2 * cap : 16;
		}
		if (asprintf(&paths[n], "%s/%s", p->tmp_dir, e->d_name) < 0)
			error = ENOMEM;
		else
			n++;
	}
	if (dir && !error)
		error = errno; /* readdir's, if it stopped on one */
	if (dir)
		closedir(dir);
	if (error)
		snprintf(r->prediction_note, sizeof(r->prediction_note),
			 "the recorded %s calls: cannot list %s: %s", kind, p->tmp_dir, strerror(error));
	else if (n && mix_merge((const char *const *)paths, n, out, calls, why, sizeof(why)))
		snprintf(r->prediction_note, sizeof(r->prediction_note), "the recorded %s calls: %s",
			 kind, why);
	else
		merged = n > 0;
	for (size_t i = 0; i < n; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
	free(paths);
	return merged ? n : 0;
}

void program_predict(const struct program_params *p, struct program_result *r)
{
	static const char *const kinds[] = { "memcpy", "memmove" };
	char record_to[4096], err[4200], why[160], sets[2][SETS_LEN];
	struct run_time t;
	bool handed;

	snprintf(record_to, sizeof(record_to), "%s/mix.%%p", p->tmp_dir);
	snprintf(err, sizeof(err), "%s/record.err", p->tmp_dir);
	if (!p->quiet)
		fprintf(stderr, "\rcopyperf program: recording the calls   ");
	if (program_run(p, SIDE_WITH, record_to, NULL, err, &t, why, sizeof(why))) {
		snprintf(r->prediction_note, sizeof(r->prediction_note), "%s", why);
		return;
	}
	unlink(err);
	if (!WIFEXITED(t.status) || WEXITSTATUS(t.status)) {
		snprintf(r->prediction_note, sizeof(r->prediction_note),
			 "the recording run did not exit 0 (wait status %#x)", t.status);
		return;
	}
	/*
	 * The sets without and with the stream, sized from the last level as found
	 * here, which both replays are handed (unless the user gave one).
	 */
	distinct_sets(sets[0], SETS_LEN, false);
	distinct_sets(sets[1], SETS_LEN, true);
	handed = !getenv("COPYPERF_LLC") && llc_probe_done() && !llc_probe_hand_down(llc_probe_done());
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct prediction *d = &r->predicted[r->n_predicted];
		char mix[4200];

		snprintf(mix, sizeof(mix), "%s/all.%s", p->tmp_dir, kinds[i]);
		memset(d, 0, sizeof(*d));
		d->kind = kinds[i];
		if ((d->processes = merge_processes(p, kinds[i], mix, &d->calls, r)) == 0)
			continue;
		if (replay(p, d, mix, sets, r) == 0)
			r->n_predicted++;
		unlink(mix);
	}
	if (handed) /* the program's environment as it was, for what runs after */
		unsetenv("COPYPERF_LLC");
	if (!r->n_predicted && !*r->prediction_note)
		snprintf(r->prediction_note, sizeof(r->prediction_note),
			 "the program made no memcpy or memmove call the shim saw");
}
