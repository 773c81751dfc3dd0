/* Internal: the learning state shared by learn.c (signatures, candidates,
 * trust) and learn_sig.c (building signatures from launches). */
#ifndef TF_LEARN_INTERNAL_H
#define TF_LEARN_INTERNAL_H
#include "engine/internal.h" /* first: it sets uthash's hash function */

#include <uthash.h>
#include "learn/learn.h"

#define LEARN_MASK_WORDS (TF_LEARN_MAX_PARAM_BYTES / 8 / 64)
#define LEARN_RING 16 /* unknown launches remembered for candidate creation */
#define LEARN_IDLE 64 /* noted launches after which an unmeasured candidate may be evicted */

typedef enum sig_state { SIG_SEEN, SIG_CANDIDATE, SIG_TRUSTED, SIG_REJECTED } sig_state;

typedef struct learn_sig {
    uint64_t hash;                   /* the key */
    uint64_t fn, module;
    unsigned grid[3], block[3];
    size_t len;
    unsigned char *bytes;            /* masked: pointer slots zero */
    uint64_t mask[LEARN_MASK_WORDS]; /* bit i: 8-byte slot i holds a pointer */
    char *name;
    sig_state state;
    int verified;
    uint64_t last_use;               /* learning's clock when last noted or made a candidate */
    size_t out_off;                  /* the slot pointing at what the GEMM read */
    int64_t out_delta;               /* view address minus that pointer */
    tf_view view;                    /* the GEMM's view (addr 0) */
    size_t in_off;                   /* proven: the source's slot */
    tf_view src;                     /* proven: source geometry (addr 0) */
    UT_hash_handle hh;
} learn_sig;

/* One remembered unknown launch: its signature and pointer values. */
typedef struct learn_seen {
    learn_sig *sig;
    uint64_t ptr[TF_LEARN_MAX_PTRS];
    size_t off[TF_LEARN_MAX_PTRS];
    int nptr;
} learn_seen;

typedef struct tf_learn {
    tf_learn_knobs knobs;
    learn_sig *sigs;                 /* uthash by hash: O(1) a launch's lookup, at most knobs' cap entries */
    int nsigs, ncandidates;
    bool sig_cap_logged, cand_cap_logged;
    learn_seen ring[LEARN_RING];     /* fixed: open_refresh walks its 16 entries at most */
    unsigned ring_next;
    bool open;                       /* a ring entry's signature is SIG_SEEN (tf_learn_open): kept by
                                        open_refresh after every change to the ring or a state */
    uint64_t lo, hi;                 /* span of every allocation seen: what a pointer looks like */
    uint64_t clock;                  /* noted launches so far */
} tf_learn;

/* learn_sig.c */
/* The signature of l (found or created; NULL when it cannot be learned). */
learn_sig *sig_of(tf_engine *e, const tf_learn_launch *l, learn_seen *seen);
learn_sig *sig_find(tf_engine *e, uint64_t hash);
void sig_free_all(tf_learn *t);

/* log.c */
void log_learn(tf_engine *e, const learn_sig *s, const char *what, tf_reason reason);

#endif
