#pragma once
// Functions: FUNCTION's libraries and FCALL, as Redis 7.0's functions.c. A library is loaded from
// its code (a `#!lua name=<library>` line, then Lua that registers its functions); its functions
// are then called by name, on a Lua state of their own, apart from EVAL's as in Redis. Redis lists
// libraries and functions in its hash tables' order, which differs from run to run; here they are
// listed by name.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/reply.hpp"
#include "base/state_writer.hpp"
#include "engine/script_run.hpp"

struct lua_State;

namespace locksim::engine {

class PreparedLua;

class Functions {
 public:
  // `run` is the engine's (its server, its random generator, its instruction budget), shared with
  // EVAL as Redis shares them; it outlives this.
  explicit Functions(ScriptRun& run);
  ~Functions();
  Functions(const Functions&) = delete;
  Functions& operator=(const Functions&) = delete;

  // FUNCTION LOAD [REPLACE] code: the library's name, or the error.
  Reply load(std::string_view code, bool replace);
  // FUNCTION DELETE library.
  Reply remove(std::string_view library);
  // FUNCTION FLUSH.
  void flush();
  // The libraries, by name, with their code: as state (base/state_writer.hpp).
  void describe(StateWriter& out) const;
  // FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE].
  Reply list(std::optional<std::string_view> pattern, bool with_code) const;
  // FUNCTION STATS (nothing runs while a client asks: a script runs to its end first).
  Reply stats() const;
  // FCALL / FCALL_RO (`read_only`) of function `name` (any case) with its keys and arguments.
  Reply call(std::string_view name, std::span<const std::string_view> keys, std::span<const std::string_view> args,
             bool read_only);
  // FUNCTION DUMP: every library's code, in name order (function_payload.hpp).
  Reply dump() const;
  // FUNCTION RESTORE payload [FLUSH | APPEND | REPLACE].
  enum class RestorePolicy { Flush, Append, Replace };
  Reply restore(std::string_view payload, RestorePolicy policy);

 private:
  struct Function {
    std::string name;
    std::optional<std::string> description;
    int ref = 0;
    uint64_t flags = 0;
  };
  struct Library {
    std::string name;
    std::string code;                 // as loaded, its metadata line included
    std::vector<Function> functions;  // by name
  };
  // Case-insensitive, as Redis's table of all functions.
  struct NoCaseLess {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const;
  };
  // A set of libraries and the index of their functions (Redis's functionsLibCtx): the server's,
  // or one FUNCTION RESTORE reads into before joining it to the server's.
  struct Catalog {
    std::map<std::string, Library, std::less<>> libraries;
    std::map<std::string, std::pair<std::string, size_t>, NoCaseLess> by_function;  // -> library, index

    void link(Library library);
    Library unlink(std::string name);
    const Function* find(std::string_view name) const;
  };

  lua_State* lua();
  // functionsCreateWithLibraryCtx: compiles `code` and links it into `into`; the library's name,
  // or the error reply's text (with its "ERR ").
  std::optional<std::string> create(std::string_view code, bool replace, Catalog& into, std::string& error);
  void release(const Library& library);
  void release(Catalog& catalog);

  ScriptRun& run_;
  std::unique_ptr<PreparedLua> prepared_;  // made at the first FUNCTION LOAD
  Catalog current_;
};

}  // namespace locksim::engine
