/* The exit summary: what transfold saw and what it saved, in one block. */
#include <inttypes.h>
#include <stdio.h>

#include "engine/internal.h"

static void human_bytes(char *out, size_t len, uint64_t b)
{
    const char *unit[] = {"B", "kB", "MB", "GB", "TB"}; /* decimal, as the report prints them */
    double v = (double)b;
    int u = 0;
    while (v >= 1000 && u < 4) {
        v /= 1000;
        u++;
    }
    snprintf(out, len, u ? "%.2f %s" : "%.0f %s", v, unit[u]);
}

void summary_write(tf_engine *e)
{
    FILE *f = e->cfg.summary;
    if (!f)
        return;
    const tf_counts *n = &e->n;
    const char *would = e->cfg.mode == TF_MODE_LOG ? "would be " : "";
    char saved[32];
    human_bytes(saved, sizeof saved, n->bytes_saved);
    fprintf(f, "transfold: mode %s, policy %s%s\n", e->cfg.mode == TF_MODE_LOG ? "log" : "fold",
            e->cfg.policy == TF_POLICY_ARGS ? "args" : "strict",
            e->cfg.scales == TF_SCALES_POW2 ? ", scales pow2 (not bitwise exact)" : "");
    fprintf(f, "transfold: transposes seen %" PRIu64 ", deferred %" PRIu64 ", %snever run %" PRIu64
               ", %smaterialized %" PRIu64 ", refused %" PRIu64 "\n",
            n->seen, n->deferred, would, n->never_run, would, n->materialized, n->refused);
    for (int i = 0; i < TF_MAX_REASONS && n->reason_key[i]; i++)
        fprintf(f, "transfold:   refused (%s): %" PRIu64 "\n", n->reason_key[i], n->reason_n[i]);
    fprintf(f, "transfold: operands %sfolded %" PRIu64 "; %ssaved %s and %" PRIu64 " launch%s\n", would,
            n->folded, would, saved, n->launches_saved, n->launches_saved == 1 ? "" : "es");
    if (n->fallbacks)
        fprintf(f, "transfold: folded calls rejected by the library and reissued: %" PRIu64 "\n", n->fallbacks);
    if (n->replays_failed)
        fprintf(f, "transfold: REPLAYS FAILED: %" PRIu64 " deferred transposes could not be reissued\n",
                n->replays_failed);
    if (e->learn)
        fprintf(f, "transfold: learned kernels: candidates %" PRIu64 ", trusted %" PRIu64 ", rejected %" PRIu64 "\n",
                n->learn_candidates, n->learn_trusted, n->learn_rejected);
    if (n->gemms_deferred)
        fprintf(f,
                "transfold: GEMMs deferred %" PRIu64 ", written transposed in a transpose's place %" PRIu64
                ", run when read %" PRIu64 ", output never read %" PRIu64 "\n",
                n->gemms_deferred, n->output_folds, n->gemms_run, n->gemms_dropped);
    if (n->frees_held)
        fprintf(f, "transfold: stream-ordered frees held until what was deferred on them ran: %" PRIu64 "\n",
                n->frees_held);
    if (n->verified)
        fprintf(f, "transfold: verified %" PRIu64 " folded calls, %" PRIu64 " mismatches\n", n->verified,
                n->verify_mismatches);
    write_check(f, "TRANSFOLD_SUMMARY", &e->summary_write_failed);
}
