.PHONY: demo install
demo: $(TRANSFOLD_SO) sim programs
	@BUILD=$(BUILD) bash scripts/demo.sh

install: $(TRANSFOLD_SO)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(TRANSFOLD_SO) $(DESTDIR)$(PREFIX)/lib/libtransfold.so
	install -m 755 scripts/transfold $(DESTDIR)$(PREFIX)/bin/transfold
