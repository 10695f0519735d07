# The two commands the README opens with. Each installs what is missing (Debian packages),
# builds into build/, and runs: `make run` the main job (only what running needs: the locksim
# binary), `make test` every test. `make install PREFIX=/opt/locksim` installs locksim there.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX ?= /usr/local

.PHONY: run test deps deps-run locksim build install sanitize bench clean

deps-run:
	@tools/install-deps run

deps:
	@tools/install-deps

# The binary alone: no test library needed (tests build when they are installed, LOCKSIM_TESTS=AUTO).
locksim: deps-run
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS) --target locksim

# Everything, tests and benchmarks included.
build: deps
	cmake -S . -B $(BUILD) -DLOCKSIM_TESTS=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

run: locksim
	$(BUILD)/locksim run scenarios --out reports/latest

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# PREFIX/bin/locksim, PREFIX/share/locksim/{scripts,scenarios}, PREFIX/share/doc/locksim.
install: locksim
	cmake --install $(BUILD) --prefix $(PREFIX)

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer, in its own build folder.
sanitize:
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DLOCKSIM_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"

bench: build
	tools/run-bench

clean:
	rm -rf $(BUILD) build-asan
