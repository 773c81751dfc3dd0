/* The engine's private state, shared by its source files and nothing else. */
#ifndef TF_INTERNAL_H
#define TF_INTERNAL_H
#include <uthash.h>

#include "engine.h"

typedef enum rec_state { REC_PENDING, REC_MATERIALIZED, REC_DROPPED } rec_state;

typedef struct tf_record {
    uint64_t id;
    tf_transpose_desc d;
    char *producer, *name, *dtype; /* owned copies of d's strings */
    tf_range src_fp, dst_fp;
    tf_range src_alloc, dst_alloc; /* the allocations holding them (args policy) */
    tf_replay replay;
    rec_state state;
    int folds;
    UT_hash_handle hh;
} tf_record;

typedef struct tf_alloc_entry {
    uint64_t base, size;
    tf_mem_kind kind;
    UT_hash_handle hh;
} tf_alloc_entry;

/* Counters behind the exit summary. Refusals are counted by a short key. */
#define TF_MAX_REASONS 24
typedef struct tf_counts {
    uint64_t seen, deferred, never_run, materialized, refused, folded;
    uint64_t bytes_saved, launches_saved, fallbacks, verified, verify_mismatches, replays_failed;
    uint64_t learn_candidates, learn_trusted, learn_rejected;
    const char *reason_key[TF_MAX_REASONS];
    uint64_t reason_n[TF_MAX_REASONS];
} tf_counts;

struct tf_engine {
    tf_config cfg;
    tf_record *pending; /* uthash by id: only PENDING records live here */
    size_t npending;
    uint64_t next_id;
    tf_alloc_entry *allocs; /* uthash by base address */
    tf_counts n;
    struct tf_late *late; /* late.c */
    size_t nlate;
    bool log_write_failed, summary_write_failed; /* said once on stderr */
    struct tf_learn *learn; /* NULL unless learning (learn.c) */
};

/* records.c */
tf_record *rec_create(tf_engine *e, const tf_transpose_desc *d, tf_replay r);
void rec_materialize(tf_engine *e, tf_record *p, uint64_t trigger_stream, const char *reason, const char *trigger);
void rec_drop(tf_engine *e, tf_record *p, const char *reason);
uint64_t rec_bytes(const tf_record *p);
void rec_discard(tf_engine *e, tf_record *p); /* forget without a verdict */

/* late.c: a record that was read late has ended; before an access or a
 * free, order it after late reads it could race with; at exit, forget. */
void late_note(tf_engine *e, const tf_record *p, bool replayed);
void late_order(tf_engine *e, const tf_access *a);
void late_order_free(tf_engine *e, tf_range r, uint64_t stream);
void late_clear(tf_engine *e);

/* allocs.c */
const tf_alloc_entry *alloc_find(const tf_engine *e, tf_range r);
tf_range alloc_range(const tf_engine *e, tf_range r);
void alloc_add(tf_engine *e, uint64_t base, uint64_t size, tf_mem_kind kind);
tf_alloc_entry *alloc_take(tf_engine *e, uint64_t base);
void alloc_clear(tf_engine *e);

/* learn.c */
void learn_alloc(tf_engine *e, uint64_t base, uint64_t size);
void learn_free(tf_engine *e);

/* effects.c */
void effects_before(tf_engine *e, const tf_access *a);
void effects_after(tf_engine *e, const tf_access *a);

/* log.c */
void log_transpose(tf_engine *e, const tf_record *p);
void log_fold(tf_engine *e, const tf_record *p, const tf_gemm *g, int operand, tf_op to);
void log_materialize(tf_engine *e, const tf_record *p, const char *reason, const char *trigger, int status);
void log_drop(tf_engine *e, const tf_record *p, const char *reason);
void log_refuse_transpose(tf_engine *e, const tf_transpose_desc *d, const char *key, const char *reason);
void log_refuse_operand(tf_engine *e, const tf_record *p, const tf_gemm *g, int operand, const char *key, const char *reason);
void count_refusal(tf_engine *e, const char *key);
void summary_write(tf_engine *e);
/* write_check.c: flushes f; the first failure is said on stderr. */
void write_check(FILE *f, const char *var, bool *reported);
const char *tf_op_name(tf_op op);

#endif
