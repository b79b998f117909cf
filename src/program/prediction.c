/* SPDX-License-Identifier: MIT */
/*
 * --record: what the program's own calls predict.
 *  1. One more run under the shim, untimed, with COPYPERF_RECORD: the shim
 *     writes the memcpy family's calls to MIX.memcpy and memmove's to
 *     MIX.memmove.
 *  2. Each mix replayed by this copyperf (`-d MIX.memcpy -r memcpy,
 *     copyperf_memcpy`, memmove's on memmove and copyperf_memmove) at the
 *     working sets of prediction_sets, as JSON read back; both replays size
 *     them from the last level this process found (llc_probe_hand_down).
 *  3. Per kind and working set, the C library's median time per call over
 *     copyperf's: the micro-benchmark's prediction, beside the program's own.
 */
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
#include "measure/call_mixes/workloads.h"
#include "measure/hardware/llc_probe.h"
#include "program.h"
#include "report/results_file.h"
#include "stats/stats.h"

/*
 * From every call's data at hand to every call's data in memory: a program's
 * copies lie somewhere between, and where its next step waits on what it has
 * just copied (a decoder), nearer the far end than its working set says.
 */
const char *const prediction_sets[PREDICTION_SETS] = { "l1", "l2", "llc", "stream", "cold" };

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

/* The count in a mix's "# calls N" line, or 0. */
static unsigned long long calls_in(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	unsigned long long n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "# calls %llu", &n) == 1)
			break;
	fclose(f);
	return n;
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

/*
 * The prediction sets that are working sets of their own here, as -w's list:
 * where two levels are the same size (a machine whose L2 is its last level),
 * -w refuses both, and the later one is left out (its ratio NaN).
 */
static void distinct_sets(char *sets, size_t len)
{
	uint64_t bytes[PREDICTION_SETS];
	char err[160];

	*sets = '\0';
	for (int k = 0; k < PREDICTION_SETS; k++) {
		bool own = (bytes[k] = working_set_bytes(prediction_sets[k], err, sizeof(err))) != 0;

		for (int j = 0; j < k && own; j++)
			own = !working_sets_coincide(prediction_sets[j], bytes[j], prediction_sets[k], bytes[k]);
		if (own)
			snprintf(sets + strlen(sets), len - strlen(sets), "%s%s", *sets ? "," : "",
				 prediction_sets[k]);
	}
}

/* Step 2 and 3 for one kind.  Returns 0, or -1 with r->prediction_note saying why. */
static int replay(const struct program_params *p, struct prediction *d, const char *mix,
		  char *sets, struct program_result *r)
{
	char json[4096], routines[64], ours[32], why[160];
	char *args[] = { "copyperf", "-d", (char *)mix, "-r", routines, "-w", sets, "-n", "5",
			 "-f", "json", "-o", json, "-q", NULL };
	struct distribution dist;
	struct result_set set;
	int status;

	if (distribution_read(&dist, mix, mix, why, sizeof(why))) {
		snprintf(r->prediction_note, sizeof(r->prediction_note), "%s", why);
		return -1;
	}
	d->mean_size = dist.mean_size;
	d->small_share = 0;
	for (size_t i = 0; i < dist.n_sizes; i++)
		if (dist.sizes[i].value <= 128)
			d->small_share += dist.sizes[i].p;
	distribution_free(&dist);
	d->calls = calls_in(mix);
	snprintf(ours, sizeof(ours), "copyperf_%s", d->kind);
	snprintf(routines, sizeof(routines), "%s,%s", d->kind, ours);
	snprintf(json, sizeof(json), "%s/replay-%s.json", p->tmp_dir, d->kind);
	if (!p->quiet)
		fprintf(stderr, "\rcopyperf program: replaying the recorded %s calls   ", d->kind);
	status = run_self(args);
	if (!p->quiet)
		fprintf(stderr, "\r%60s\r", "");
	if (status != 0) {
		snprintf(r->prediction_note, sizeof(r->prediction_note),
			 "the replay of %s (copyperf -d) exited with status %d", mix, status);
		return -1;
	}
	if (result_set_read(&set, json, why, sizeof(why))) {
		snprintf(r->prediction_note, sizeof(r->prediction_note), "%s", why);
		return -1;
	}
	for (int k = 0; k < PREDICTION_SETS; k++)
		d->ratio[k] = median_time(&set, d->kind, prediction_sets[k]) /
			      median_time(&set, ours, prediction_sets[k]);
	result_set_free(&set);
	unlink(json);
	return 0;
}

void program_predict(const struct program_params *p, struct program_result *r)
{
	static const char *const kinds[] = { "memcpy", "memmove" };
	char record_to[4096], err[4200], why[160], sets[64];
	struct run_time t;
	bool handed;

	snprintf(record_to, sizeof(record_to), "%s/mix", p->tmp_dir);
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
	/* the last level as found here, handed to both replays (unless the user gave one) */
	distinct_sets(sets, sizeof(sets));
	handed = !getenv("COPYPERF_LLC") && llc_probe_done() && !llc_probe_hand_down(llc_probe_done());
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct prediction *d = &r->predicted[r->n_predicted];
		char mix[4200];

		snprintf(mix, sizeof(mix), "%s.%s", record_to, kinds[i]);
		if (access(mix, R_OK))
			continue;
		memset(d, 0, sizeof(*d));
		d->kind = kinds[i];
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
