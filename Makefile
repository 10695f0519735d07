# The two commands the README opens with. Each installs what is missing (Debian packages),
# builds into build/, and runs: `make run` the main job, `make test` every test.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: run test deps build sanitize bench clean

deps:
	@tools/install-deps

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/locksim run scenarios --out reports/latest

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer, in its own build folder.
sanitize:
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DLOCKSIM_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"

bench: build
	tools/run-bench

clean:
	rm -rf $(BUILD) build-asan
