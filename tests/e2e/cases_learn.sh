# Learning (issue 8): kernel transposes recognised with no rule, proven on
# the data, folded once trusted; learned rules written and used. Programs
# loop like training steps; with K = 2 (the default) a transpose's function
# is watched from step 0 (a GEMM read memory whose writer was not noted), is
# a candidate at step 1, measured at steps 2 and 3, folded from step 4 on.
# The e2e kernel rules are not used here (zero configuration).

LEARN_STEPS=6
LEARN_FOLDED=2 # LEARN_STEPS - K - 2
K_COPY=kernel:_Z16elementwise_copyi12copy_closure
K_NVF_COPY=kernel:_ZN11CudaCodeGen7kernel1ENS_6TensorIfLi2ELi2EEES1___copy
K_TRITON=kernel:triton_poi_fused_clone_0
MEASURE_OPS='cuMemcpyDtoH|cuMemcpyHtoD|cuMemsetD8'

# learn_mode NAME [VAR=VALUE...] -- PROGRAM ARGS: one run with transfold
# preloaded, no e2e rules; results in $CASE_DIR/NAME.*
learn_mode() {
    local name=$1 vars=()
    shift
    while [ "$1" != -- ]; do vars+=("$1"); shift; done
    shift
    rm -f "$CASE_DIR/$name".*
    (cd "$CASE_DIR" && env LD_LIBRARY_PATH="$BUILD/sim" SIMCUDA_KERNELS="$BUILD/programs/libtwins.so" \
        SIMCUDA_TRACE="$CASE_DIR/$name.trace" LD_PRELOAD="${SAN_PRELOAD:+$SAN_PRELOAD:}$BUILD/libtransfold.so" TRANSFOLD_LOG="$CASE_DIR/$name.log" \
        TRANSFOLD_SUMMARY="$CASE_DIR/$name.summary" "${vars[@]}" timeout "${E2E_TIMEOUT:-60}" "$@" \
        >"$name.out" 2>"$name.err") 2>/dev/null
    echo $? >"$CASE_DIR/$name.rc"
    touch "$CASE_DIR/$name.trace" "$CASE_DIR/$name.log"
}

# same_as_base NAME: stdout and exit status equal the run without transfold.
same_as_base() {
    if cmp -s "$CASE_DIR/base.out" "$CASE_DIR/$1.out"; then ok "$1: stdout identical to base"
    else fail "$1: stdout differs from base ($(diff "$CASE_DIR/base.out" "$CASE_DIR/$1.out" | head -3 | tr '\n' ' '))"; fi
    check "$1: exit status" "$(cat "$CASE_DIR/base.rc")" "$(cat "$CASE_DIR/$1.rc")"
}

# runs_in MODE TOKEN: how many times TOKEN ran.
runs_in() { tokens "$1" | grep -cxF -- "$2"; }

# measured_only MODE: what MODE did beyond base is measuring (copies out and
# back, sentinel fills, kernel reruns), nothing of base's work went missing
# except the transposes named in "$2" (tokens).
measured_only() {
    local mode=$1 gone=" ${2:-} " tok
    local extra
    extra=$(diff <(device_tokens base | grep -vxE "$MEASURE_OPS" | grep -v '^kernel:' | sort) \
        <(device_tokens "$mode" | grep -vxE "$MEASURE_OPS" | grep -v '^kernel:' | sort) | grep -c '^[<>]')
    check "$mode: device work other than kernels and measuring identical to base" 0 "$extra"
    for tok in $(tokens base | grep '^kernel:' | sort -u); do
        [[ $gone == *" $tok "* ]] && continue
        check "$mode: $tok still runs at least as often as in base" yes \
            "$([ "$(runs_in "$mode" "$tok")" -ge "$(runs_in base "$tok")" ] && echo yes || echo no)"
    done
}

# learn_all PROGRAM ARGS: base, off, log (learns), fold/args/verify with
# --learn, inject (verify on the wrong-fold build) with --learn, then
# `learn -o` (fold mode writing rules) and a run with only those rules.
learn_all() {
    local prog=$BUILD/programs/$1 m
    shift
    run_mode base "$prog" "$@"
    check "base run exits 0" 0 "$(cat "$CASE_DIR/base.rc")"
    learn_mode off TRANSFOLD_MODE=off -- "$prog" "$@"
    learn_mode log TRANSFOLD_MODE=log -- "$prog" "$@"
    learn_mode fold TRANSFOLD_LEARN=1 -- "$prog" "$@"
    learn_mode args TRANSFOLD_LEARN=1 TRANSFOLD_POLICY=args -- "$prog" "$@"
    learn_mode verify TRANSFOLD_LEARN=1 TRANSFOLD_VERIFY=1 -- "$prog" "$@"
    learn_mode inject TRANSFOLD_LEARN=1 TRANSFOLD_VERIFY=1 LD_PRELOAD="${SAN_PRELOAD:+$SAN_PRELOAD:}$BUILD/inject/libtransfold.so" -- "$prog" "$@"
    learn_mode learned TRANSFOLD_LEARN_OUT="$CASE_DIR/learned.rules" -- "$prog" "$@"
    learn_mode rules TRANSFOLD_RULES="$CASE_DIR/learned.rules" -- "$prog" "$@"
    learn_mode rules_verify TRANSFOLD_RULES="$CASE_DIR/learned.rules" TRANSFOLD_VERIFY=1 -- "$prog" "$@"
    for m in off log fold args verify inject learned rules rules_verify; do same_as_base "$m"; done
    expect_same_trace off
    for m in log fold args verify learned rules rules_verify; do
        check "$m: events carry a mode" 0 "$(jq -c 'select(.mode != "fold" and .mode != "log")' "$CASE_DIR/$m.log" 2>&1 | wc -l)"
    done
    measured_only log
    # verify mode checks every folded call; on the wrong-fold build the first
    # mismatch also distrusts the learned transpose, so later steps run as issued
    local folds checked
    folds=$(count_events fold true verify)
    checked=$(count_events verify true verify)
    check "verify: no mismatch" 0 "$(count_events verify '.result != "equal"' verify)"
    check "verify: every folded call checked" yes \
        "$([ "$checked" -le "$folds" ] && [ "$checked" -ge $(((folds + 1) / 2)) ] && echo yes || echo no)"
    if [ "$folds" -gt 0 ]; then
        check "inject: the wrong fold caught, nothing passed" yes "$([ "$(count_events verify '.result == "MISMATCH"' inject)" -ge 1 ] &&
            [ "$(count_events verify '.result == "equal"' inject)" = 0 ] && echo yes || echo no)"
        expect_events inject learn 1 '.what == "rejected" and (.reason | test("verify"))'
    fi
    for m in verify rules_verify; do check "$m: no mismatch" 0 "$(count_events verify '.result != "equal"' "$m")"; done
    expect_summary fold 'learned kernels: candidates'
}

# learned_transpose TOKEN OTHER...: TOKEN is proven (trusted) and folded on
# every step after the learning ones (fold, args), on every step with the
# learned rules; the OTHER kernels (trace tokens) are measured, rejected and
# never deferred.
learned_transpose() {
    local tok=$1 m base_n
    shift
    base_n=$(runs_in base "$tok")
    check "base: $tok runs every step" "$LEARN_STEPS" "$base_n"
    for m in log fold args; do expect_events "$m" learn 1 ".what == \"trusted\" and (\"kernel:\" + .name) == \"$tok\""; done
    for m in fold args; do
        expect_events "$m" fold "$LEARN_FOLDED" "(\"kernel:\" + .name) == \"$tok\""
        expect_events "$m" drop "$LEARN_FOLDED" '(.reason | test("exit") | not)'
        expect_events "$m" materialize 0
        # each measured launch runs twice more; each folded one not at all
        expect_trace "$m" "$tok" $((LEARN_STEPS - LEARN_FOLDED + 4))
        measured_only "$m" "$tok"
    done
    expect_events log fold "$LEARN_FOLDED"
    check "learn -o: a rule for $tok written" 1 "$(grep -v " effect=writes " "$CASE_DIR/learned.rules" | grep -c "^${tok#kernel:} ")"
    expect_events rules fold "$LEARN_STEPS"
    expect_events rules learn 0
    expect_trace rules "$tok" 0
    check "rules: no other device work changed" 0 \
        "$(diff <(device_tokens base | grep -vxF "$tok") <(device_tokens rules | grep -vxF "$tok") | grep -c '^[<>]')"
    # the others: proven not to be transposes (their names may be the same)
    local other
    for other in "$@"; do expect_trace rules "$other" "$(runs_in base "$other")"; done
    for m in log fold args; do expect_events "$m" learn $# '.what == "rejected"'; done
}

case_learn_aten() { # strided copy kernel: transposes learned, plain copy and permutation rejected
    learn_all learn_aten "$LEARN_STEPS"
    check "base: the copy kernel runs 3 times a step" $((3 * LEARN_STEPS)) "$(runs_in base "$K_COPY")"
    local m
    for m in log fold args; do
        expect_events "$m" learn 3 '.what == "candidate"'
        expect_events "$m" learn 1 '.what == "trusted"'
        expect_events "$m" learn 2 '.what == "rejected" and (.reason | test("not the transpose"))'
    done
    for m in fold args; do
        expect_events "$m" fold "$LEARN_FOLDED"
        # 2 copies a step + the unfolded transposes, 2 reruns per measured launch
        expect_trace "$m" "$K_COPY" $((2 * LEARN_STEPS + LEARN_STEPS - LEARN_FOLDED + 2 * 4))
    done
    expect_events rules fold "$LEARN_STEPS"
    expect_trace rules "$K_COPY" $((2 * LEARN_STEPS))
    expect_summary fold 'learned kernels: candidates 3, trusted 1, rejected 2'
    expect_summary fold "never run $LEARN_FOLDED"
    local report
    report=$("$ROOT/scripts/transfold" report "$CASE_DIR/log.log")
    check "report: learned sites listed" 3 "$(grep -cE '^  (trusted|rejected)  kernel _Z16elementwise_copy' <<<"$report")"
    check "report --json: one trusted site" 1 \
        "$("$ROOT/scripts/transfold" report --json "$CASE_DIR/log.log" | jq '.learned | map(select(.state == "trusted")) | length')"
}

K_OC_COPY=kernel:_Z23elementwise_offset_copyi12copy_closure
# the rejections a wrong output slot or an unstable signature produced (issue 20)
OC_WRONG='.key == "learn_leaves_unwritten" or .key == "learn_writes_outside" or .key == "learn_view_outside"'

case_learn_offset_calc() { # ATen's copy layout: the plain copy's proven footprint keeps the transpose pending
    learn_all learn_offset_calc "$LEARN_STEPS"
    check "base: the copy kernel runs twice a step" $((2 * LEARN_STEPS)) "$(runs_in base "$K_OC_COPY")"
    local m
    for m in log fold args; do
        expect_events "$m" learn 2 '.what == "candidate"'
        expect_events "$m" learn 1 '.what == "trusted"'
        expect_events "$m" learn 1 '.what == "rejected" and .key == "learn_not_transpose"'
    done
    # the plain copy, launched while the transpose is pending, is no longer
    # unknown work: before issue 20 each folded step was materialized by it
    for m in fold args; do
        expect_events "$m" transpose "$LEARN_FOLDED"
        expect_events "$m" fold "$LEARN_FOLDED"
        expect_events "$m" drop "$LEARN_FOLDED" '.key == "dst_freed"'
        expect_events "$m" materialize 0
    done
    check "learn -o: the transpose's rule" 1 "$(grep -v ' effect=writes ' "$CASE_DIR/learned.rules" | grep -c "^${K_OC_COPY#kernel:} ")"
    check "learn -o: the plain copy's effect rule" 1 "$(grep -c "^${K_OC_COPY#kernel:} effect=writes .* reads=" "$CASE_DIR/learned.rules")"
    for m in rules rules_verify; do
        expect_events "$m" transpose "$LEARN_STEPS"
        expect_events "$m" fold "$LEARN_STEPS"
        expect_events "$m" materialize 0
        expect_events "$m" learn 0
    done
    expect_trace rules "$K_OC_COPY" "$LEARN_STEPS"
    expect_summary fold "never run $LEARN_FOLDED, materialized 0"
}

# oc_garbage VARIANT STEPS: learn_offset_calc with ATen's uninitialized slots
# beyond dims and stale pointers before its data slots; base, fold, args,
# verify, learn -o and the rules, every output equal to base.
oc_garbage() {
    local prog=$BUILD/programs/learn_offset_calc m
    run_mode base "$prog" "$2" "$1"
    learn_mode fold TRANSFOLD_LEARN=1 -- "$prog" "$2" "$1"
    learn_mode args TRANSFOLD_LEARN=1 TRANSFOLD_POLICY=args -- "$prog" "$2" "$1"
    learn_mode verify TRANSFOLD_LEARN=1 TRANSFOLD_VERIFY=1 -- "$prog" "$2" "$1"
    learn_mode learned TRANSFOLD_LEARN_OUT="$CASE_DIR/learned.rules" -- "$prog" "$2" "$1"
    learn_mode rules TRANSFOLD_RULES="$CASE_DIR/learned.rules" TRANSFOLD_VERIFY=1 -- "$prog" "$2" "$1"
    for m in fold args verify learned rules; do same_as_base "$m"; done
    for m in fold args verify; do
        expect_events "$m" learn 0 "$OC_WRONG"
        check "$m: launches merged into the transpose's signature" yes \
            "$([ "$(count_events learn '.what == "merged"' "$m")" -ge 1 ] && echo yes || echo no)"
    done
    for m in verify rules; do check "$m: no mismatch" 0 "$(count_events verify '.result != "equal"' "$m")"; done
}

case_learn_offset_calc_garbage() { # slots beyond dims repeat every third step (3 signatures in 6 launches, as measured)
    oc_garbage garbage 10
    local m
    for m in fold args verify; do
        # one signature by its own repeats, one by launches merged into it
        expect_events "$m" learn 2 '.what == "trusted" and .verified == 2'
    done
    for m in fold args; do
        expect_events "$m" fold 3
        expect_events "$m" materialize 0
    done
    expect_events rules fold 10
    check "learn -o: the transpose's rule leaves the varying bytes unguarded" yes \
        "$([ "$(grep -v ' effect=writes ' "$CASE_DIR/learned.rules" | grep "^${K_OC_COPY#kernel:} " | head -1 | grep -o ' if=' | wc -l)" -lt 100 ] && echo yes || echo no)"
}

case_learn_offset_calc_fresh() { # new bytes at every launch: trusted all the same
    oc_garbage fresh 10
    expect_events fold learn 1 '.what == "trusted" and .verified == 2'
    expect_events fold transpose 5
    # the plain copies' effects are never widened to other bytes: under
    # strict each is unknown work, under args it points elsewhere
    expect_events fold materialize 5 '.key == "unknown_access"'
    expect_events args fold 5
    expect_events args materialize 0
}

case_learn_nvfuser() { # two modules, one kernel name: the transpose learned, the copy never deferred
    learn_all learn_driver nvfuser "$BUILD/programs/nvf_transpose.ptx" "$BUILD/programs/learn_nvf_copy.ptx" "$LEARN_STEPS"
    learned_transpose "$K_NVF" "$K_NVF_COPY"
    # the transpose, and the copy of the other module as an effect (issue 20): each pins its own module
    check "learn -o: the rules pin the modules" 2 "$(grep -c ' module=[0-9a-f]\{16\} ' "$CASE_DIR/learned.rules")"
    check "learn -o: two modules" 2 "$(grep -o ' module=[0-9a-f]\{16\} ' "$CASE_DIR/learned.rules" | sort -u | wc -l)"
    check "learn -o: the copy is an effect rule" 1 "$(grep -c ' effect=writes ' "$CASE_DIR/learned.rules")"
}

case_learn_triton() { # dlopen/dlsym of libcuda + cuLaunchKernel
    learn_all learn_driver triton "$BUILD/programs/learn_triton.ptx" - "$LEARN_STEPS"
    learned_transpose "$K_TRITON"
}

# adversary CASE REASON: never trusted, never deferred, with REASON logged.
adversary() {
    learn_all learn_adv "$1" "$LEARN_STEPS"
    local m
    for m in log fold args; do
        expect_events "$m" learn 1 ".what == \"rejected\" and (.reason | test(\"$2\"))"
        expect_events "$m" learn 0 '.what == "trusted"'
        expect_events "$m" transpose 0
    done
    for m in fold args; do measured_only "$m"; done
    expect_same_trace rules
    check "learn -o: no rule written" 0 "$(grep -vc '^#' "$CASE_DIR/learned.rules")"
}

case_learn_adv_second() { adversary second 'second buffer'; }
case_learn_adv_partial() { adversary partial 'part of the GEMM'; }
case_learn_adv_ptrflag() { adversary ptrflag 'third buffer'; }

case_learn_adv_flag() { # trusted while its flag holds; verify catches the flip
    learn_all learn_adv flag "$LEARN_STEPS"
    learned_transpose kernel:_Z12transpose_ifPfPKiPKfii
    run_mode base "$BUILD/programs/learn_adv" flag "$LEARN_STEPS" 4
    learn_mode flip TRANSFOLD_LEARN=1 TRANSFOLD_VERIFY=1 -- "$BUILD/programs/learn_adv" flag "$LEARN_STEPS" 4
    learn_mode flip_rules TRANSFOLD_RULES="$CASE_DIR/learned.rules" TRANSFOLD_VERIFY=1 -- \
        "$BUILD/programs/learn_adv" flag "$LEARN_STEPS" 4
    local m
    for m in flip flip_rules; do
        same_as_base "$m" # verify keeps the unfolded result
        expect_summary "$m" 'VERIFY MISMATCH'
    done
    # learned in the process: distrusted at the first mismatch, run as issued after
    expect_events flip verify 1 '.result == "MISMATCH"'
    expect_events flip learn 1 '.what == "rejected" and (.reason | test("verify")) and .key == "learn_verify_mismatch"'
    expect_events flip transpose 1
    # from a rules file: the rule holds, every flipped step is caught
    expect_events flip_rules verify 2 '.result == "MISMATCH"'
}

case_learn_rule_coverage() { # a rule's launch too small for its footprint: refused, runs as issued
    run_all learn_adv undercover "$LEARN_STEPS"
    untouched
    refused transpose "$LEARN_STEPS"
    local m
    for m in log $FOLD_MODES; do
        expect_events "$m" refuse "$LEARN_STEPS" '(.reason | test("16 threads cannot cover the 384 elements")) and .key == "launch_coverage"'
    done
}

case_learn_bad_knobs() { # a bad learning knob: one line naming it, then pass-through
    local v
    for v in TRANSFOLD_LEARN=2 TRANSFOLD_LEARN_K=0 TRANSFOLD_LEARN_MAX_BYTES=-5 TRANSFOLD_LEARN_MAX_CANDIDATES=x; do
        run_mode base "$BUILD/programs/learn_aten" 2
        learn_mode bad "$v" -- "$BUILD/programs/learn_aten" 2
        same_as_base bad
        expect_same_trace bad
        # (timeout, run under the same preload, says it too)
        check "$v: a line names it" yes "$(grep -q "^transfold: ${v%%=*}=${v#*=} is not" "$CASE_DIR/bad.err" && echo yes)"
        expect_events bad learn 0
    done
}
