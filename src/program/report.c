/* SPDX-License-Identifier: MIT */
/* `copyperf program`'s result as a table, CSV or JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include "copyperf.h"
#include "program.h"
#include "report/csv_field.h"
#include "report/json_write.h"
#include "report/machine.h"

/* "exit 3", "killed by SIGSEGV" */
static void status_text(int status, char *buf, size_t len)
{
	if (status == -1 || status == 0)
		snprintf(buf, len, "did not run");
	else if (WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "wait status %#x", status);
}

static int exit_code(const struct side_result *s)
{
	if (!s->bad_status)
		return 0;
	if (WIFEXITED(s->bad_status))
		return WEXITSTATUS(s->bad_status);
	return WIFSIGNALED(s->bad_status) ? 128 + WTERMSIG(s->bad_status) : -1;
}

void program_command_text(const struct program_params *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; p->argv[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", p->argv[i]);
}

/*
 * A replay's ratios at the prediction sets, after its title; '-' where none
 * was measured: a level the size of another here, a stream the mix's calls
 * are too small to walk, a chained or tested replay that failed (the note
 * says why).
 */
static void predicted_line(FILE *f, const char *title, const double *ratios)
{
	fprintf(f, "  %s", title);
	for (int k = 0; k < PREDICTION_SETS; k++) {
		if (isnan(ratios[k]))
			fprintf(f, " %s -", prediction_sets[k]);
		else
			fprintf(f, " %s %.3fx", prediction_sets[k], ratios[k]);
		fputs(k + 1 < PREDICTION_SETS ? "," : "\n", f);
	}
}

/* The same as a JSON member: "name":{"l1":RATIO,...}, null for a level left out. */
static void predicted_object(FILE *f, const char *name, const double *ratios)
{
	fprintf(f, ",\"%s\":{", name);
	for (int k = 0; k < PREDICTION_SETS; k++) {
		fprintf(f, "%s\"%s\":", k ? "," : "", prediction_sets[k]);
		json_number(f, ratios[k]);
	}
	fputc('}', f);
}

static void table(FILE *f, const struct program_params *p, const struct program_result *r)
{
	char command[4096];

	program_command_text(p, command, sizeof(command));
	fprintf(f, "program: %s\n(%u pair%s after an untimed warm-up of each side, the side that goes first swapped "
		   "each pair;\n ", command, r->pairs_done, r->pairs_done == 1 ? "" : "s");
	if (p->cpu >= 0)
		fprintf(f, "pinned to CPU %d; ", p->cpu);
	if (p->control)
		fputs("A/A control: both sides without the shim, the program against itself)\n", f);
	else
		fprintf(f, "shim %s)\n", p->shim);
	if (r->pairs_done) {
		fprintf(f, "%-22s %10s  [%8s - %8s] %10s %10s\n", "side", "wall s", "min", "max",
			"user s", "sys s");
		for (int s = 0; s < SIDES; s++) {
			const struct side_result *d = &r->side[s];

			fprintf(f, "%-22s %10.4f  [%8.4f - %8.4f] %10.4f %10.4f\n", program_side_name(p, s),
				d->wall_s.median, d->wall_s.min, d->wall_s.max, d->user_s.median,
				d->sys_s.median);
		}
		fprintf(f, "ratio %.3fx (the median wall time without the shim over with it: above 1, "
			   "faster with it)\n", r->ratio);
		fprintf(f, "pairs %.3fx-%.3fx; p %.4f (Mann-Whitney, wall times): %s\n",
			r->pair_ratio.min, r->pair_ratio.max, r->p, r->verdict);
	} else {
		fputs("no pair timed\n", f);
	}
	fprintf(f, "outputs: %s%s%s\n", r->check, *r->check_detail ? ": " : "", r->check_detail);
	for (int s = 0; s < SIDES; s++)
		if (r->side[s].bad_status) {
			char st[96];

			status_text(r->side[s].bad_status, st, sizeof(st));
			if (r->side[s].bad_run)
				fprintf(f, "FAILED: %s, pair %u: %s", program_side_name(p, s), r->side[s].bad_run, st);
			else
				fprintf(f, "FAILED: %s, the warm-up: %s", program_side_name(p, s), st);
			fprintf(f, "%s%s\n", *r->side[s].stderr_tail ? ": " : "", r->side[s].stderr_tail);
		}
	if (!strcmp(r->check, "differ"))
		fputs("FAILED: the outputs differ: the shim changed what the program computes\n", f);
	if (r->interrupted)
		fprintf(f, "interrupted after %u pair%s\n", r->pairs_done, r->pairs_done == 1 ? "" : "s");
	if (p->record) {
		if (*r->prediction_note)
			fprintf(f, "recorded mix: %s\n", r->prediction_note);
		for (size_t i = 0; i < r->n_predicted; i++) {
			const struct prediction *d = &r->predicted[i];

			fprintf(f, "recorded %s calls: %llu in %zu process%s, mean %.0f B, %.1f%% at most "
				   "128 B; replayed (copyperf -d, the C library's time over copyperf's):\n",
				d->kind, d->calls, d->processes, d->processes == 1 ? "" : "es",
				d->mean_size, 100 * d->small_share);
			for (int w = 0; w < PREDICTION_WAYS; w++)
				predicted_line(f, prediction_ways[w].line, d->ratio[w]);
		}
	}
	if (p->counters) {
		if (r->cycles.measured)
			fprintf(f, "time in the copy routines (perf record, %s samples): %.1f%% without the "
				   "shim, %.1f%% with it\n", r->cycles.event,
				100 * r->cycles.share[SIDE_WITHOUT], 100 * r->cycles.share[SIDE_WITH]);
		else
			fprintf(f, "time in the copy routines: not measured: %s\n", r->cycles.why_not);
	}
}

static void csv(FILE *f, const struct program_params *p, const struct program_result *r)
{
	char command[4096];

	program_command_text(p, command, sizeof(command));
	fputs("command,side,pairs,wall_median,wall_min,wall_max,user_median,user_min,user_max,"
	      "sys_median,sys_min,sys_max,exit_status,ratio,pair_ratio_min,pair_ratio_max,p,verdict,check\n", f);
	for (int s = 0; s < SIDES; s++) {
		const struct side_result *d = &r->side[s];

		csv_field(f, command);
		fprintf(f, ",%s,%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,",
			s == SIDE_WITHOUT ? "without" : p->control ? "without-again" : "with", r->pairs_done,
			d->wall_s.median, d->wall_s.min, d->wall_s.max, d->user_s.median, d->user_s.min,
			d->user_s.max, d->sys_s.median, d->sys_s.min, d->sys_s.max, exit_code(d));
		if (s == SIDE_WITH)
			fprintf(f, "%.9g,%.9g,%.9g,%.9g,%s,%s\n", r->ratio, r->pair_ratio.min,
				r->pair_ratio.max, r->p, r->verdict, r->check);
		else
			fputs(",,,,,\n", f);
	}
}

static void json_side(FILE *f, const struct side_result *d, unsigned n)
{
	json_triple(f, "wall", d->wall_s.median, d->wall_s.min, d->wall_s.max);
	fputc(',', f);
	json_triple(f, "user", d->user_s.median, d->user_s.min, d->user_s.max);
	fputc(',', f);
	json_triple(f, "sys", d->sys_s.median, d->sys_s.min, d->sys_s.max);
	fputs(",\"samples\":[", f);
	for (unsigned i = 0; i < n; i++) {
		fputs(i ? "," : "", f);
		json_number(f, d->wall[i]);
	}
	fprintf(f, "],\"exit_status\":%d", exit_code(d));
}

/*
 * The two sides again as results rows, one run a "call" of the command's
 * "distribution", so that `copyperf compare` and `copyperf plot` read a
 * program's results as they read a replay's: two runs of the command (another
 * shim, another machine) compare side by side.
 */
static void results_rows(FILE *f, const struct program_params *p, const struct program_result *r)
{
	char command[4096];

	program_command_text(p, command, sizeof(command));
	fprintf(f, ",\"config\":{\"repeat\":%u,\"seed\":0,\"distributions\":[", r->pairs_done);
	json_string(f, command);
	fputs("],\"working_sets\":[\"program\"]},\"results\":[", f);
	for (int s = 0; s < SIDES; s++) {
		const struct side_result *d = &r->side[s];

		fputs(s ? ",\n{\"routine\":" : "\n{\"routine\":", f);
		json_string(f, program_side_name(p, s));
		fputs(",\"space\":\"user\",\"distribution\":", f);
		json_string(f, command);
		fprintf(f, ",\"working_set\":0,\"working_set_name\":\"program\",\"layout\":\"spread\","
			   "\"calls\":1,\"threads\":1,\"total\":0,\"repeats\":%u,", r->pairs_done);
		json_triple(f, "seconds", d->wall_s.median, d->wall_s.min, d->wall_s.max);
		fputs(",\"samples\":[", f);
		for (unsigned i = 0; i < r->pairs_done; i++) {
			fputs(i ? "," : "", f);
			json_number(f, d->wall[i]);
		}
		fprintf(f, "],\"verified\":%s}", !d->bad_status && r->pairs_done && strcmp(r->check, "differ")
			? "true" : "false");
	}
	fputs("\n]", f);
}

static void json(FILE *f, const struct program_params *p, const struct program_result *r)
{
	struct machine_info m;

	machine_read(&m);
	fprintf(f, "{\"tool\":\"copyperf\",\"version\":");
	json_string(f, copyperf_version());
	fputc(',', f);
	json_machine(f, &m);
	fputs(",\"program\":{\"command\":[", f);
	for (size_t i = 0; p->argv[i]; i++) {
		fputs(i ? "," : "", f);
		json_string(f, p->argv[i]);
	}
	fprintf(f, "],\"pairs\":%u,\"cpu\":", r->pairs_done);
	if (p->cpu >= 0)
		fprintf(f, "%d", p->cpu);
	else
		fputs("null", f);
	fputs(",\"shim\":", f);
	json_string(f, p->shim);
	fprintf(f, ",\"control\":%s", p->control ? "true" : "false");
	for (int s = 0; s < SIDES; s++) {
		fprintf(f, ",\"%s\":{", s == SIDE_WITHOUT ? "without" : "with");
		json_side(f, &r->side[s], r->pairs_done);
		fputc('}', f);
	}
	fputs(",\"ratio\":", f);
	json_number(f, r->ratio);
	fputc(',', f);
	json_triple(f, "pair_ratios", r->pair_ratio.median, r->pair_ratio.min, r->pair_ratio.max);
	fputs(",\"p\":", f);
	json_number(f, r->p);
	fprintf(f, ",\"verdict\":\"%s\",\"check\":\"%s\",\"status\":\"%s\",\"interrupted\":%s", r->verdict,
		r->check, r->failed ? "failed" : "ok", r->interrupted ? "true" : "false");
	if (p->record) {
		fputs(",\"recorded\":[", f);
		for (size_t i = 0; i < r->n_predicted; i++) {
			const struct prediction *d = &r->predicted[i];

			fprintf(f, "%s{\"kind\":\"%s\",\"calls\":%llu,\"processes\":%zu,\"mean_size\":",
				i ? "," : "", d->kind, d->calls, d->processes);
			json_number(f, d->mean_size);
			fputs(",\"at_most_128\":", f);
			json_number(f, d->small_share);
			for (int w = 0; w < PREDICTION_WAYS; w++)
				predicted_object(f, prediction_ways[w].json, d->ratio[w]);
			fputc('}', f);
		}
		fputc(']', f);
		if (*r->prediction_note) {
			fputs(",\"recorded_note\":", f);
			json_string(f, r->prediction_note);
		}
	}
	if (p->counters) {
		fputs(",\"copy_share\":", f);
		if (r->cycles.measured) {
			fputs("{\"event\":", f);
			json_string(f, r->cycles.event);
			fputs(",\"without\":", f);
			json_number(f, r->cycles.share[SIDE_WITHOUT]);
			fputs(",\"with\":", f);
			json_number(f, r->cycles.share[SIDE_WITH]);
			fputc('}', f);
		} else {
			fputs("{\"not_measured\":", f);
			json_string(f, r->cycles.why_not);
			fputc('}', f);
		}
	}
	fputc('}', f);
	results_rows(f, p, r);
	fputs("}\n", f);
}

int program_report(FILE *f, const struct program_params *p, const struct program_result *r)
{
	switch (p->format) {
	case PROGRAM_TABLE:
		table(f, p, r);
		break;
	case PROGRAM_CSV:
		csv(f, p, r);
		break;
	case PROGRAM_JSON:
		json(f, p, r);
		break;
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}
