#include "engine/functions.hpp"

#include <algorithm>
#include <lua.hpp>
#include <strings.h>

#include "base/assert.hpp"
#include "engine/command_context.hpp"
#include "engine/errors.hpp"
#include "engine/function_lua.hpp"
#include "engine/function_payload.hpp"
#include "engine/glob.hpp"
#include "engine/lua_bridge.hpp"
#include "engine/lua_call.hpp"
#include "engine/lua_state_pool.hpp"
#include "engine/script_flags.hpp"

namespace locksim::engine {
namespace {

constexpr std::string_view kEngineName = "LUA";
bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && strncasecmp(s.data(), prefix.data(), prefix.size()) == 0;
}

// functionExtractLibMetaData: the engine and library name from the first line ("#!lua name=lib"),
// and the code from that line's end on (so that line numbers count from the metadata's line).
struct Metadata {
  std::string engine, name, code;
};
std::optional<Metadata> metadata(std::string_view payload, std::string& error) {
  if (!payload.starts_with("#!")) {
    error = "ERR Missing library metadata";
    return std::nullopt;
  }
  const auto line = script_flags::shebang_line(payload);
  if (std::holds_alternative<script_flags::ShebangProblem>(line)) {
    error = "ERR Invalid library metadata";
    return std::nullopt;
  }
  const std::vector<std::string>* parts = &std::get<script_flags::ShebangLine>(line).words;
  const size_t end = std::get<script_flags::ShebangLine>(line).length;
  Metadata md;
  md.engine = (*parts)[0].substr(std::min<size_t>(2, (*parts)[0].size()));
  std::optional<std::string> name;
  for (size_t i = 1; i < parts->size(); ++i) {
    const std::string& part = (*parts)[i];
    if (!starts_with_nocase(part, "name=")) {
      error = "ERR Invalid metadata value given: " + part;
      return std::nullopt;
    }
    if (name) {
      error = "ERR Invalid metadata value, name argument was given multiple times";
      return std::nullopt;
    }
    name = part.substr(5);
  }
  if (!name) {
    error = "ERR Library name was not given";
    return std::nullopt;
  }
  md.name = std::move(*name);
  md.code = std::string(payload.substr(0, payload.find('\0')).substr(end));
  return md;
}

}  // namespace

bool Functions::NoCaseLess::operator()(std::string_view a, std::string_view b) const {
  const int c = strncasecmp(a.data(), b.data(), std::min(a.size(), b.size()));
  return c != 0 ? c < 0 : a.size() < b.size();
}

Functions::Functions(ScriptRun& run) : run_(run) {}

Functions::~Functions() = default;  // closing the state releases every callback

lua_State* Functions::lua() {
  if (!prepared_) {
    prepared_ = std::make_unique<PreparedLua>();
    function_lua::install(prepared_->state());
    lua_bridge::attach(prepared_->state(), run_);
  }
  return prepared_->state();
}

std::optional<std::string> Functions::create(std::string_view code, bool replace, Catalog& into, std::string& error) {
  code = code.substr(0, code.find('\0'));  // a C string to Redis
  auto md = metadata(code, error);
  if (!md) return std::nullopt;
  if (!function_lua::valid_name(md->name)) {
    error = errors::err(errors::kBadFunctionName);
    return std::nullopt;
  }
  if (!equals_ignore_case(md->engine, kEngineName)) {
    error = "ERR Engine '" + md->engine + "' not found";
    return std::nullopt;
  }
  const bool exists = into.libraries.count(md->name) > 0;
  if (exists && !replace) {
    error = "ERR Library '" + md->name + "' already exists";
    return std::nullopt;
  }
  function_lua::Loaded loaded = function_lua::load(lua(), md->code);
  if (!loaded.error.empty()) {
    error = loaded.error;
    return std::nullopt;
  }
  Library library{.name = md->name, .code = std::string(code), .functions = {}};
  for (function_lua::Registered& r : loaded.functions)
    library.functions.push_back({.name = std::move(r.name), .description = std::move(r.description), .ref = r.ref, .flags = r.flags});
  std::sort(library.functions.begin(), library.functions.end(),
            [](const Function& a, const Function& b) { return a.name < b.name; });
  if (library.functions.empty()) {
    error = "ERR No functions registered";
    return std::nullopt;
  }
  // The library it replaces is out of the way while the names are checked, and back if they clash.
  std::optional<Library> old;
  if (exists) old = into.unlink(md->name);
  for (const Function& f : library.functions) {
    if (into.by_function.count(f.name) == 0) continue;
    if (old) into.link(std::move(*old));
    release(library);
    error = "ERR Function " + f.name + " already exists";
    return std::nullopt;
  }
  into.link(std::move(library));
  if (old) release(*old);
  return md->name;
}

Reply Functions::load(std::string_view code, bool replace) {
  std::string error;
  const auto name = create(code, replace, current_, error);
  return name ? Reply::bulk(*name) : Reply::error(error);
}

void Functions::Catalog::link(Library library) {
  const std::string name = library.name;
  for (size_t i = 0; i < library.functions.size(); ++i) by_function.emplace(library.functions[i].name, std::make_pair(name, i));
  libraries.emplace(name, std::move(library));
}

Functions::Library Functions::Catalog::unlink(std::string name) {
  auto it = libraries.find(name);
  LS_ASSERT(it != libraries.end());
  Library library = std::move(it->second);
  libraries.erase(it);
  for (const Function& f : library.functions) {
    auto entry = by_function.find(f.name);
    if (entry != by_function.end() && entry->second.first == name) by_function.erase(entry);
  }
  return library;
}

const Functions::Function* Functions::Catalog::find(std::string_view name) const {
  auto it = by_function.find(name);
  if (it == by_function.end()) return nullptr;
  return &libraries.at(it->second.first).functions[it->second.second];
}

void Functions::release(const Library& library) {
  for (const Function& f : library.functions) function_lua::release(lua(), f.ref);
}

void Functions::release(Catalog& catalog) {
  while (!catalog.libraries.empty()) release(catalog.unlink(catalog.libraries.begin()->first));
}

Reply Functions::remove(std::string_view library) {
  auto it = current_.libraries.find(library);
  if (it == current_.libraries.end()) return Reply::error("ERR Library not found");
  release(current_.unlink(it->first));
  return Reply::ok();
}

void Functions::flush() { release(current_); }

Reply Functions::list(std::optional<std::string_view> pattern, bool with_code) const {
  Reply out = Reply::array();
  for (const auto& [name, library] : current_.libraries) {
    if (pattern && !glob_match(*pattern, name, /*nocase=*/true)) continue;
    Reply functions = Reply::array();
    for (const Function& f : library.functions) {
      Reply flags = Reply::array();
      for (const auto& [flag, flag_name] : script_flags::names())
        if (f.flags & flag) flags.elements.push_back(Reply::status(flag_name));
      functions.elements.push_back(Reply::array({Reply::bulk("name"), Reply::bulk(f.name), Reply::bulk("description"),
                                                 f.description ? Reply::bulk(*f.description) : Reply::nil(),
                                                 Reply::bulk("flags"), std::move(flags)}));
    }
    Reply entry = Reply::array({Reply::bulk("library_name"), Reply::bulk(name), Reply::bulk("engine"),
                                Reply::bulk(kEngineName), Reply::bulk("functions"), std::move(functions)});
    if (with_code) {
      entry.elements.push_back(Reply::bulk("library_code"));
      entry.elements.push_back(Reply::bulk(library.code));
    }
    out.elements.push_back(std::move(entry));
  }
  return out;
}

Reply Functions::stats() const {
  int64_t functions = 0;
  for (const auto& [name, library] : current_.libraries) functions += static_cast<int64_t>(library.functions.size());
  Reply lua_stats = Reply::array({Reply::bulk("libraries_count"), Reply::integer_of(static_cast<int64_t>(current_.libraries.size())),
                                  Reply::bulk("functions_count"), Reply::integer_of(functions)});
  return Reply::array({Reply::bulk("running_script"), Reply::nil(), Reply::bulk("engines"),
                       Reply::array({Reply::bulk(kEngineName), std::move(lua_stats)})});
}

Reply Functions::call(std::string_view name, std::span<const std::string_view> keys,
                      std::span<const std::string_view> args, bool read_only) {
  const Function* f = current_.find(name);
  if (f == nullptr) return Reply::error("ERR Function not found");
  if (script_flags::refused_read_only(f->flags, read_only)) return Reply::error(errors::kWriteScriptFromReadOnly);
  return run_lua(lua(), run_.server,
                 {.mode = LuaCall::Mode::Function, .name = f->name, .function_ref = f->ref, .keys = keys, .args = args,
                  .read_only = script_flags::runs_read_only(f->flags, read_only)});
}

Reply Functions::dump() const {
  std::vector<std::string> codes;
  for (const auto& [name, library] : current_.libraries) codes.push_back(library.code);
  return Reply::bulk(function_payload::encode(codes));
}

Reply Functions::restore(std::string_view payload, RestorePolicy policy) {
  const function_payload::Decoded decoded = function_payload::decode(payload);
  if (!decoded.error.empty()) return Reply::error(errors::err(decoded.error));
  // rdbFunctionLoad reads every library into a catalog of its own first: a clash there, or a
  // library that does not load, leaves the server's as it was.
  Catalog restored;
  std::string error;
  for (const std::string& code : decoded.codes) {
    if (!create(code, false, restored, error)) {
      release(restored);
      return Reply::error(error);
    }
  }
  if (policy == RestorePolicy::Flush) {
    release(current_);
    current_ = std::move(restored);
    return Reply::ok();
  }
  // libraryJoin: a library of the same name is an error (APPEND) or is replaced (REPLACE); a
  // function name already taken is an error either way, and puts back what was replaced.
  std::vector<Library> replaced;
  for (const auto& [name, library] : restored.libraries) {
    if (current_.libraries.count(name) == 0) continue;
    if (policy == RestorePolicy::Append) {
      error = "ERR Library " + name + " already exists";
      break;
    }
    replaced.push_back(current_.unlink(name));
  }
  if (error.empty()) {
    for (const auto& [name, library] : restored.libraries)
      for (const Function& f : library.functions)
        if (error.empty() && current_.by_function.count(f.name) > 0) error = "ERR Function " + f.name + " already exists";
  }
  if (!error.empty()) {
    for (Library& library : replaced) current_.link(std::move(library));
    release(restored);
    return Reply::error(error);
  }
  while (!restored.libraries.empty()) current_.link(restored.unlink(restored.libraries.begin()->first));
  for (const Library& library : replaced) release(library);
  return Reply::ok();
}

}  // namespace locksim::engine
