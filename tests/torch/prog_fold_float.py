"""Issue 20: prog_fold_seed with a .float() of each output between the
transposes (a converting copy, decoded: its bytes never touch them)."""
import os

os.environ["TF_FOLD_FLOAT"] = "1"
import prog_fold_seed  # noqa: E402,F401  (runs the program)
