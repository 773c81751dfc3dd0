/* Why something was not folded: every reason an event gives (refuse,
 * materialize, drop, verify skipped, learn rejected or capped) is one line
 * of the table below, named by a stable key. Emitters pass the key (an enum
 * value, so a key that is not in the table does not compile) and the values
 * its text needs; the log writes the key, the old coarse class and the
 * text. docs/events.md lists every key; `transfold report` maps each key to
 * a hint. Keys are never renamed: tools match on them.
 *
 * X(key, class, text). class is the short key refusals had before there
 * were keys (the summary counts by it). text is what the event's "reason"
 * says; its %s, %lld and %g/%+g take the reason's str, num and real values
 * in order (tf_why_text). */
#ifndef TF_REASONS_H
#define TF_REASONS_H
#include <stddef.h>

#define TF_REASON_LIST(X)                                                                                         \
    /* refuse, what=transpose: the engine */                                                                      \
    X(shape_invalid, "shape", "views invalid")                                                                    \
    X(in_place, "in-place", "source and destination overlap")                                                     \
    X(scale_not_one, "scale", "scale %g%+gi is not 1 (TRANSFOLD_SCALES=exact)")                                  \
    X(scale_not_pow2, "scale", "scale %g%+gi is not 1 or a power of two")                                         \
    X(memory, "memory", "operands not inside device allocations seen being made (managed, host or unknown memory)") \
    X(capture, "capture", "issued into a stream capture: it runs in the graph")                                   \
    /* refuse, what=transpose: the producer's hook */                                                             \
    X(device_pointer_mode, "producer", "device pointer mode: alpha and beta unknown")                              \
    X(both_operands, "producer", "both operands contribute (alpha and beta nonzero)")                             \
    X(stream_unusable, "producer", "the handle's stream is not usable: the call reports that itself")            \
    X(type_conversion, "producer", "type conversion: source and destination types differ")                        \
    X(descriptor_copy, "producer", "could not copy the transform's descriptors")                                  \
    X(replay_alloc, "producer", "could not allocate the replay")                                                  \
    X(launch_coverage, "producer", "a launch of %lld threads cannot cover the %lld elements its rule declares")   \
    X(launch_layout, "producer", "the launch's parameter layout is unknown (no sig= in the rule)")                \
    X(launch_dims, "producer", "launch dimensions the driver rejects")                                            \
    X(launch_stream, "producer", "launch on a stream the driver rejects")                                         \
    X(rule_field_outside, "producer", "a rule field lies outside the launch's parameters")                        \
    X(rule_negative_shape, "producer", "negative shape in the launch's parameters")                               \
    X(rule_shape_overflow, "producer", "shape overflows 64 bits")                                                 \
    X(rule_ld_small, "producer", "leading dimension smaller than the row")                                        \
    X(rule_null_operand, "producer", "null operand")                                                              \
    X(rule_address_wrap, "producer", "shape overflows 64 bits or wraps the address space")                        \
    /* refuse, what=operand: the engine */                                                                        \
    X(stream, "stream", "consumer on another stream than the transpose")                                          \
    X(elem_size, "type", "element size %lld != %lld")                                                             \
    X(ld, "ld", "leading dimension %lld != transpose's %lld")                                                     \
    X(batch_stride, "batch", "batch stride %lld != transpose's %lld")                                             \
    X(subview, "subview", "operand is not a sub-view of the transpose's output")                                  \
    X(conj_real_gemm, "type", "conjugate transpose read by a real-typed GEMM")                                    \
    X(conj_no_op, "op", "no cuBLAS op reads a conjugate without transpose")                                       \
    X(scale_alpha_device, "scale", "transpose scaled but the GEMM's alpha is in device memory")                  \
    /* refuse, what=operand: the consumer's hook */                                                               \
    X(fp8_tn, "consumer", "FP8 cublasLtMatmul must stay TN")                                                      \
    X(block_scaled, "consumer", "block-scaled operand: its scale factors follow its layout")                      \
    X(conj_row_order, "consumer", "conjugate of a row-ordered complex operand has no cuBLASLt form")              \
    /* refuse + materialize: the folded call failed (its cause's text is the second %s) */                      \
    X(library_rejected, "library", "folded %s rejected by the library: %s")                                       \
    /* cause of library_rejected: how the folded call failed */                                                 \
    X(cublas_rejected, "library", "cuBLAS rejected the folded call")                                              \
    X(lt_rejected_call, "library", "cuBLASLt rejected the folded call")                                           \
    X(lt_rejected_layout, "library", "cuBLASLt rejected the folded layout")                                       \
    X(lt_rejected_desc, "library", "cuBLASLt rejected the folded matmul descriptor")                              \
    X(lt_no_algorithm, "library", "no cuBLASLt algorithm for the folded layouts")                                 \
    X(out_of_memory, "library", "out of memory")                                                                  \
    /* materialize: the engine (operand_refused: cause is the refusal's key, its text the third %s) */          \
    X(operand_refused, "operand", "read by %s operand %s: %s")                                                    \
    X(dst_read, "access", "destination read by %s")                                                               \
    X(gemm_output_read, "access", "deferred GEMM's output read by %s operand %s")                                 \
    X(src_overwritten, "access", "source overwritten by %s")                                                      \
    X(dst_partly_overwritten, "access", "destination partly overwritten by %s")                                   \
    X(src_freed, "free", "source freed by %s")                                                                    \
    X(pool_exhausted, "free", "held frees given back: %s ran out of memory")                                      \
    X(unknown_access, "access", "unknown access by %s")                                                           \
    /* materialize: the hooks */                                                                                  \
    X(opaque_call, "access", "%s")                                                                                \
    X(gemm_types_unknown, "access", "GEMM with data types transfold does not describe")                           \
    X(lt_matmul_unreadable, "access", "cublasLtMatmul with descriptors transfold cannot read")                    \
    X(lt_transform_unreadable, "access", "cublasLtMatrixTransform with descriptors transfold cannot read")        \
    X(stream_destroyed, "lifetime", "stream destroyed")                                                           \
    X(device_reset, "lifetime", "device reset")                                                                   \
    X(context_destroyed, "lifetime", "context destroyed")                                                         \
    X(cublas_handle_destroyed, "lifetime", "cuBLAS handle destroyed")                                             \
    X(lt_handle_destroyed, "lifetime", "cuBLASLt handle destroyed")                                               \
    X(capture_begins, "capture", "stream capture begins")                                                         \
    X(capture_ends, "capture", "stream capture ends")                                                             \
    X(capture_joins, "capture", "stream joins a capture")                                                         \
    X(graph_launch, "capture", "graph launch")                                                                    \
    X(host_function, "order", "host function queued")                                                             \
    /* drop */                                                                                                    \
    X(exit_never_freed, "drop", "process exit: destination never freed")                                          \
    X(dst_freed, "drop", "destination freed by %s")                                                               \
    X(dst_overwritten, "drop", "destination overwritten by %s")                                                   \
    /* verify, result=skipped */                                                                                  \
    X(verify_capture, "verify", "a stream capture is in progress")                                                \
    X(verify_output_fold, "verify", "the output fold could not be checked (a capture, a dtype not known, no scratch)") \
    /* learn, what=rejected */                                                                                    \
    X(learn_foreign_memory, "learn",                                                                              \
      "a pointer parameter reaches memory not allocated on the device as transfold saw it")                      \
    X(learn_output_moved, "learn", "the output pointer is not where the GEMM saw it")                             \
    X(learn_cap_bytes, "learn", "cap: a measurement would snapshot more bytes than TRANSFOLD_LEARN_MAX_BYTES")    \
    X(learn_source_changed, "learn", "proven with a different source from one launch to the next")                \
    X(learn_third_buffer, "learn",                                                                                \
      "a pointer parameter reaches a third buffer, which could steer what the kernel writes")                    \
    X(learn_view_outside, "learn", "the GEMM's view leaves the output allocation")                                \
    X(learn_reads_output, "learn", "written bytes depend on the output's previous contents")                      \
    X(learn_writes_outside, "learn", "writes bytes outside the GEMM's view of its output")                        \
    X(learn_leaves_unwritten, "learn", "leaves part of the GEMM's view of its output unwritten")                  \
    X(learn_second_buffer, "learn", "writes a second buffer besides its output")                                  \
    X(learn_launch_failed, "learn", "the measuring launches failed")                                              \
    X(learn_view_invalid, "learn", "the GEMM's view is empty or invalid")                                         \
    X(learn_not_transpose, "learn",                                                                               \
      "the written bytes are not the transpose of a region another pointer parameter reaches")                   \
    X(learn_verify_mismatch, "learn", "verify: a GEMM folded onto it differed from the unfolded one")             \
    /* learn, what=evicted */                                                                                     \
    X(learn_evicted, "learn", "candidate cap reached: the longest idle candidate makes room")                     \
    /* learn, what=cap */                                                                                         \
    X(learn_cap_candidates, "learn", "candidate cap reached (TRANSFOLD_LEARN_MAX_CANDIDATES): not measured")      \
    X(learn_cap_signatures, "learn", "signature table full: later unknown kernels are not learned")

typedef enum tf_reason {
    TF_R_NONE, /* no reason: the call may go ahead (0, so `if (refuse)` reads naturally) */
#define TF_R_ENUM(key, class, text) TF_R_##key,
    TF_REASON_LIST(TF_R_ENUM)
#undef TF_R_ENUM
    TF_R_COUNT
} tf_reason;

/* One occurrence of a reason: its key and the values its text takes.
 * `cause`: for a reason that wraps another (operand_refused,
 * library_rejected), the wrapped one's key, logged as "cause". */
typedef struct tf_why {
    tf_reason key;
    tf_reason cause;
    const char *str[3];
    long long num[2];
    double real[2];
} tf_why;

/* TF_WHY(ld, .num = {a, b}): a reason by key, checked by the compiler. */
#define TF_WHY(name, ...) ((tf_why){ .key = TF_R_##name, __VA_ARGS__ })
/* A reason held in a tf_reason variable, with no values. */
#define TF_WHY_KEY(k) ((tf_why){ .key = (k) })

const char *tf_reason_key(tf_reason r);   /* "ld"; NULL for TF_R_NONE or out of range */
const char *tf_reason_class(tf_reason r); /* "ld" */
const char *tf_reason_text(tf_reason r);  /* the text as the table has it, conversions unfilled */
/* The text with this occurrence's values, into buf (truncated to len).
 * A conversion without a value prints "?": never undefined behaviour. */
const char *tf_why_text(const tf_why *w, char *buf, size_t len);

#endif
