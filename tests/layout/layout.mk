# The layering of preload/ and analysis/ (docs/design.md's map): includes
# and the symbols objects use point down the layers of tests/layout/check.py,
# with no circles, and at most ten .c files sit directly in either folder.
.PHONY: layout-check
layout-check: $(TRANSFOLD_SO)
	@python3 tests/layout/check.py . $(PRELOAD_OBJ) $(ENGINE_OBJ)
test: layout-check
