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

/* SIG_MERGED: a launch proven to be a group's transpose (learn_group.c);
 * its own signature is judged, its launches now match the group. */
typedef enum sig_state { SIG_SEEN, SIG_CANDIDATE, SIG_TRUSTED, SIG_REJECTED, SIG_MERGED } sig_state;
#define LEARN_VARY_WORDS (TF_LEARN_MAX_PARAM_BYTES / 64)
#define LEARN_FAM_GROUPS 4    /* candidates or trusted signatures a family bootstraps launches against */
#define LEARN_GROUP_FAILS 16  /* bootstrap measurements against a group that may fail before it stops */
#define LEARN_BOOT_NEAR 16    /* bytes a launch may differ from a group with varying bytes, to be measured against it */

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
    /* Bytes that differed between launches proven to be this same
     * transpose (one bit a byte; NULL: none): ignored when a launch is
     * matched against the signature (learn_group.c). */
    uint64_t *vary;
    /* Rejected after its write footprint was proven (the GEMM's view at
     * out_off + out_delta, nothing else reachable written): its launches
     * carry that effect instead of being unknown work. */
    bool effect;
    /* Another signature of its family became a candidate with the same
     * output slot and view: its launches may differ in bytes they do not
     * read, and the family's unmatched launches are measured against it. */
    bool recurs;
    int fails;                       /* launches measured against it that proved another operation */
    UT_hash_handle hh;
} learn_sig;

/* A family: launches of one function with one grid, block and parameter
 * size. Its groups are the signatures a launch matching none exactly is
 * measured against. */
typedef struct learn_fam {
    uint64_t hash;
    learn_sig *groups[LEARN_FAM_GROUPS];
    UT_hash_handle hh;
} learn_fam;

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
    learn_fam *fams;                 /* uthash by family hash: only families with a candidate */
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
/* The signature of l (found or created; NULL when it cannot be learned):
 * a group it matches outside its varying bytes first, else its own. */
learn_sig *sig_of(tf_engine *e, const tf_learn_launch *l, learn_seen *seen);
learn_sig *sig_find(tf_engine *e, uint64_t hash);
void sig_free_all(tf_learn *t);
/* The pointer slots of l (bit per 8-byte slot), as signatures mask them. */
void sig_ptr_mask(const tf_learn *t, const tf_learn_launch *l, uint64_t *mask);
/* l's pointer slots into seen, those g's varying bytes cover left out;
 * false when there are more than learning follows. */
bool sig_seen(const tf_learn_launch *l, const uint64_t *mask, const learn_sig *g, learn_seen *seen);
static inline bool sig_is_ptr(const uint64_t *mask, size_t off)
{
    return mask[off / 512] >> (off / 8 % 64) & 1;
}
static inline bool sig_varies(const learn_sig *s, size_t off)
{
    return s->vary && (s->vary[off / 64] >> (off % 64) & 1);
}

/* learn_group.c */
uint64_t fam_hash(const tf_learn_launch *l);
/* s became a candidate: its family bootstraps launches against it. */
void fam_add(tf_engine *e, learn_sig *s);
/* The group of l's family l matches outside its varying bytes, or NULL. */
learn_sig *group_match(tf_engine *e, const tf_learn_launch *l, const uint64_t *mask);
/* The candidate or trusted group of l's family to measure l (whose own
 * signature is unjudged) against, or NULL. */
learn_sig *group_for_bootstrap(tf_engine *e, const tf_learn_launch *l, const uint64_t *mask);
/* l was proven to be group g's transpose: the bytes where it differs vary. */
bool group_merge(learn_sig *g, const tf_learn_launch *l, const uint64_t *mask);
void fam_free_all(tf_learn *t);

/* log.c */
void log_learn(tf_engine *e, const learn_sig *s, const char *what, tf_reason reason);

#endif
