/* The stand-in sums every GEMM in one fixed order, whatever the op flags,
 * so a folded and an unfolded call give the same bits: it asks transfold's
 * verify mode for a bitwise comparison (TRANSFOLD_VERIFY_EXACT, a setting
 * of transfold's own) unless the environment already says otherwise. Each
 * library sets it before the program starts; transfold reads it at its
 * first comparison. */
#include <stdlib.h>

__attribute__((constructor, visibility("hidden"))) void sim_verify_exact(void)
{
    setenv("TRANSFOLD_VERIFY_EXACT", "1", 0);
}
