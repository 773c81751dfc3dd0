/* Shared helpers compiled into every stand-in library (hidden there, so each
 * library keeps only the exports its version script names).
 *
 * Trace: when SIMCUDA_TRACE=<path> is set, every device operation the
 * stand-in executes appends exactly one JSON object on its own line:
 *     {"op":"<op>"}                     sim_trace("cudaFree", NULL)
 *     {"op":"<op>",<extra>}             sim_trace("cudaMemcpy", "\"bytes\":%zu,\"kind\":%d", n, k)
 * `extra` is a printf format producing the remaining JSON members, without
 * the leading comma; NULL or "" adds nothing. Callers are responsible for
 * valid JSON in `extra` (use sim_json_escape for arbitrary strings).
 * Lines are written with a single write(2) on an O_APPEND descriptor, so the
 * four libraries and any number of threads may trace into one file.
 */
#ifndef SIM_TRACE_H
#define SIM_TRACE_H
#include <stdbool.h>
#include <stddef.h>

#define SIM_HIDDEN __attribute__((visibility("hidden")))

/* True when SIMCUDA_TRACE is set; lets callers skip building costly fields. */
SIM_HIDDEN bool sim_trace_enabled(void);

/* Appends {"op":"<op>"[,<extra...>]} and a newline to the trace file. */
SIM_HIDDEN void sim_trace(const char *op, const char *extra, ...)
    __attribute__((format(printf, 2, 3)));

/* True when SIMCUDA_NOOP=1: skip arithmetic and copies (benchmarks only).
 * Operations are still validated and traced. */
SIM_HIDDEN bool sim_noop(void);

/* Copies `s` into `out` (capacity `cap`, always NUL-terminated) with JSON
 * string escaping, without the surrounding quotes. Returns `out`. */
SIM_HIDDEN char *sim_json_escape(char *out, size_t cap, const char *s);

#endif
