#pragma once
// Error texts exactly as Debian's redis-server 7.0.15 sends them (checked by verify/differential).
#include <string>
#include <string_view>

namespace locksim::engine::errors {

inline constexpr std::string_view kWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";
inline constexpr std::string_view kNotInteger = "ERR value is not an integer or out of range";
inline constexpr std::string_view kNotFloat = "ERR value is not a valid float";
inline constexpr std::string_view kMinMaxNotFloat = "ERR min or max is not a float";
inline constexpr std::string_view kSyntax = "ERR syntax error";
inline constexpr std::string_view kOverflow = "ERR increment or decrement would overflow";
inline constexpr std::string_view kNoSuchKey = "ERR no such key";
inline constexpr std::string_view kInvalidCursor = "ERR invalid cursor";
inline constexpr std::string_view kIndexOutOfRange = "ERR index out of range";
inline constexpr std::string_view kNoScript = "NOSCRIPT No matching script. Please use EVAL.";
inline constexpr std::string_view kHashValueNotInteger = "ERR hash value is not an integer";
inline constexpr std::string_view kHashValueNotFloat = "ERR hash value is not a float";
inline constexpr std::string_view kValueNanOrInfinity = "ERR value is NaN or Infinity";
// HRANDFIELD's and ZRANDMEMBER's count with WITHVALUES / WITHSCORES past LONG_MAX/2 either way.
inline constexpr std::string_view kValueOutOfRange = "ERR value is out of range";
inline constexpr std::string_view kNegativeKeys = "ERR Number of keys can't be negative";
inline constexpr std::string_view kTooManyKeys =
    "ERR Number of keys can't be greater than number of args";
// functionsVerifyName's refusal, for a library's name and a function's alike (without "ERR ").
inline constexpr std::string_view kBadFunctionName =
    "Library names can only contain letters, numbers, or underscores(_) and must be at least one character long";
inline constexpr std::string_view kWriteScriptFromReadOnly =
    "ERR Can not execute a script with write flag using *_ro command.";
inline constexpr std::string_view kWriteInReadOnlyScript = "ERR Write commands are not allowed from read-only scripts.";
inline constexpr std::string_view kStringTooLong = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";

// "ERR " + text: the one helper that adds Redis's default error code.
inline std::string err(std::string_view text) { return "ERR " + std::string(text); }

// "ERR " + text as Redis's addReplyErrorFormat sends it: CR and LF trimmed from the end, and any
// others turned into spaces, so that the error stays on one line.
inline std::string err_format(std::string_view text) {
  std::string out = err(text);
  while (!out.empty() && (out.back() == '\r' || out.back() == '\n')) out.pop_back();
  for (char& c : out)
    if (c == '\r' || c == '\n') c = ' ';
  return out;
}

inline std::string wrong_arity(std::string_view command) {
  return "ERR wrong number of arguments for '" + std::string(command) + "' command";
}

// getRangeLongFromObjectOrReply's own message (Redis's typo "must between" included).
inline std::string value_out_of_range(long long min, long long max) {
  return "ERR value is out of range, value must between " + std::to_string(min) + " and " + std::to_string(max);
}

// zunionInterDiffGenericCommand's refusal of numkeys 0 (the command's lower-case name).
inline std::string needs_input_key(std::string_view command) {
  return "ERR at least 1 input key is needed for '" + std::string(command) + "' command";
}

inline std::string invalid_expire(std::string_view command) {
  return "ERR invalid expire time in '" + std::string(command) + "' command";
}

// Option checks (EXPIRE family, ZADD, ZRANGE, LPOP/RPOP count).
inline constexpr std::string_view kExpireNxAndOthers =
    "ERR NX and XX, GT or LT options at the same time are not compatible";
inline constexpr std::string_view kExpireGtAndLt = "ERR GT and LT options at the same time are not compatible";
inline constexpr std::string_view kZaddXxAndNx = "ERR XX and NX options at the same time are not compatible";
inline constexpr std::string_view kZaddGtLtNx = "ERR GT, LT, and/or NX options at the same time are not compatible";
inline constexpr std::string_view kZaddIncrPair = "ERR INCR option supports a single increment-element pair";
inline constexpr std::string_view kScoreNaN = "ERR resulting score is not a number (NaN)";
inline constexpr std::string_view kZrangeLimit =
    "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX";
inline constexpr std::string_view kZrangeWithScoresByLex =
    "ERR syntax error, WITHSCORES not supported in combination with BYLEX";
inline constexpr std::string_view kLexRange = "ERR min or max not valid string range item";
inline constexpr std::string_view kCountNotPositive = "ERR value is out of range, must be positive";
inline constexpr std::string_view kDecrementOverflow = "ERR decrement would overflow";
inline constexpr std::string_view kNumkeysNotPositive = "ERR numkeys should be greater than 0";
inline constexpr std::string_view kLimitNegative = "ERR LIMIT can't be negative";
inline constexpr std::string_view kWeightNotFloat = "ERR weight value is not a float";
inline constexpr std::string_view kCountNotGreaterThanZero = "ERR count should be greater than 0";
inline constexpr std::string_view kLposRankZero =
    "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start "
    "from the end of the list";
inline constexpr std::string_view kLposCountNegative = "ERR COUNT can't be negative";
inline constexpr std::string_view kLposMaxlenNegative = "ERR MAXLEN can't be negative";
inline constexpr std::string_view kOffsetOutOfRange = "ERR offset is out of range";
// LCS (t_string.c).
inline constexpr std::string_view kLcsNotStrings = "ERR The specified keys must contain string values";
inline constexpr std::string_view kLcsLenAndIdx = "ERR If you want both the length and indexes, please just use IDX.";
inline constexpr std::string_view kLcsTooBig =
    "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len";
// Bitmaps (bitops.c).
inline constexpr std::string_view kBitOffset = "ERR bit offset is not an integer or out of range";
inline constexpr std::string_view kBitValue = "ERR bit is not an integer or out of range";
inline constexpr std::string_view kBitArgument = "ERR The bit argument must be 1 or 0.";
inline constexpr std::string_view kBitopNotSingleKey = "ERR BITOP NOT must be called with a single source key.";
inline constexpr std::string_view kIncrNanOrInfinity = "ERR increment would produce NaN or Infinity";
inline constexpr std::string_view kLfuNotSelected =
    "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching "
    "between policies at runtime LRU and LFU data will take some time to adjust.";
inline constexpr std::string_view kScriptFlushOption = "ERR SCRIPT FLUSH only support SYNC|ASYNC option";

// Dispatch.
inline constexpr std::string_view kEmptyCommand = "ERR empty command";
inline constexpr std::string_view kUnknownScriptCommand = "ERR Unknown Redis command called from script";
inline constexpr std::string_view kScriptCommandArity = "ERR Wrong number of args calling Redis command from script";
inline constexpr std::string_view kNotAllowedFromScript = "ERR This Redis command is not allowed from script";

// Transactions (multi.c).
inline constexpr std::string_view kMultiNested = "ERR MULTI calls can not be nested";
inline constexpr std::string_view kExecWithoutMulti = "ERR EXEC without MULTI";
inline constexpr std::string_view kDiscardWithoutMulti = "ERR DISCARD without MULTI";
inline constexpr std::string_view kWatchInsideMulti = "ERR WATCH inside MULTI is not allowed";
// A no-multi command (SHUTDOWN) inside MULTI: refused, and the transaction flagged.
inline constexpr std::string_view kNotInTransaction = "ERR Command not allowed inside a transaction";
inline constexpr std::string_view kExecAbort = "EXECABORT Transaction discarded because of previous errors.";

// execCommandAbort: EXEC itself refused (its arity, say) ends the transaction, and the reply tells
// why. Redis formats the refusal's bare text, so its ERR code is not repeated.
inline std::string exec_abort(std::string_view refusal) {
  if (refusal.starts_with("ERR ")) refusal.remove_prefix(4);
  return "EXECABORT Transaction discarded because of: " + std::string(refusal);
}

// Databases (db.c, object.c's getIntFromObjectOrReply).
inline constexpr std::string_view kDbIndexOutOfRange = "ERR DB index is out of range";
inline constexpr std::string_view kInvalidFirstDbIndex = "ERR invalid first DB index";
inline constexpr std::string_view kInvalidSecondDbIndex = "ERR invalid second DB index";
inline constexpr std::string_view kSameObject = "ERR source and destination objects are the same";
inline constexpr std::string_view kIntOutOfRange =
    "ERR value is out of range, value must between -2147483648 and 2147483647";

// The Lua redis library.
inline constexpr std::string_view kCallWithoutArguments =
    "ERR Please specify at least one argument for this redis lib call";
inline constexpr std::string_view kCallArgumentType = "ERR Lua redis lib command arguments must be strings or integers";
inline constexpr std::string_view kWrongArgumentsOrType = "ERR wrong number or type of arguments";
inline constexpr std::string_view kLogArity = "ERR redis.log() requires two arguments or more.";
inline constexpr std::string_view kLogLevelNotNumber = "ERR First argument must be a number (log level).";
inline constexpr std::string_view kLogLevelInvalid = "ERR Invalid debug level.";
inline constexpr std::string_view kSetrespArity = "ERR redis.setresp() requires one argument.";
inline constexpr std::string_view kRespVersion = "ERR RESP version must be 2 or 3.";
inline constexpr std::string_view kSetReplArity = "ERR redis.set_repl() requires one argument.";
inline constexpr std::string_view kSetReplFlags =
    "ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.";
inline constexpr std::string_view kAclCheckUnknownCommand = "ERR Invalid command passed to redis.acl_check_cmd()";
inline constexpr std::string_view kUnknownLuaError = "ERR unknown error";
// locksim's own refusals, worded as Redis would word them.
inline constexpr std::string_view kResp3Unsupported =
    "ERR locksim's fake Redis speaks RESP2 only (redis.setresp(3) is not supported)";

inline std::string unsupported_option(std::string_view option) {
  return err_format("Unsupported option " + std::string(option));
}

inline std::string not_in_pubsub_context(std::string_view command) {
  return "ERR Can't execute '" + std::string(command) +
         "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context";
}

// `subcommand` as Redis's '%.128s' prints it (cut at a NUL byte, then to 128 bytes), and the line
// kept whole: commandCheckExistence turns CR and LF into spaces.
inline std::string unknown_subcommand(std::string_view subcommand, std::string_view command) {
  std::string text = "ERR unknown subcommand '" +
                     std::string(subcommand.substr(0, subcommand.find('\0')).substr(0, 128)) + "'. Try " +
                     std::string(command) + " HELP.";
  for (char& c : text)
    if (c == '\r' || c == '\n') c = ' ';
  return text;
}

inline std::string unknown_subcommand_or_arity(std::string_view subcommand, std::string_view command) {
  return "ERR unknown subcommand or wrong number of arguments for '" + std::string(subcommand.substr(0, 128)) +
         "'. Try " + std::string(command) + " HELP.";
}

// `command` and `args` as Redis's rejectCommandFormat prints them (the caller cuts them to size).
inline std::string unknown_command(std::string_view command, std::string_view args) {
  return "ERR unknown command '" + std::string(command) + "', with args beginning with: " + std::string(args);
}

inline std::string compile_failed(std::string_view lua_message) {
  return "ERR Error compiling script (new function): " + std::string(lua_message);
}

inline std::string script_failed(std::string_view sha, std::string_view lua_message) {
  return "ERR Error running script " + std::string(sha) + ", " + std::string(lua_message);
}

inline std::string instruction_budget_exceeded(long long budget) {
  return "ERR Script exceeded the instruction budget of " + std::to_string(budget) +
         " Lua instructions (locksim's deterministic stand-in for Redis's busy-script time limit)";
}

// Busy scripts (script.c, server.c's shared.slowevalerr and slowscripterr, script_lua.c's hook).
inline constexpr std::string_view kBusyEval =
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
inline constexpr std::string_view kBusyFunction =
    "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";
inline constexpr std::string_view kNotBusy = "NOTBUSY No scripts in execution right now.";
inline constexpr std::string_view kUnkillable =
    "UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the "
    "script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.";
inline constexpr const char* kScriptKilled = "ERR Script killed by user with SCRIPT KILL...";

// Blocking commands (timeout.c's getTimeoutFromObjectOrReply, blocked.c).
inline constexpr std::string_view kTimeoutNotFloat = "ERR timeout is not a float or out of range";
inline constexpr std::string_view kTimeoutNegative = "ERR timeout is negative";
inline constexpr std::string_view kUnblocked = "UNBLOCKED client unblocked via CLIENT UNBLOCK";

// SORT (sort.c).
inline constexpr std::string_view kSortScoreNotDouble = "ERR One or more scores can't be converted into double";

// CLUSTER on a server without cluster support (cluster.c).
inline constexpr std::string_view kClusterDisabled = "ERR This instance has cluster support disabled";

// The server layer's commands (networking.c, acl.c, config.c, replication.c), which a host answers.
inline constexpr std::string_view kTimeoutNotInteger = "ERR timeout is not an integer or out of range";
inline constexpr std::string_view kNoSuchClient = "ERR No such client";
inline constexpr std::string_view kClientIdNotPositive = "ERR client-id should be greater than 0";
inline constexpr std::string_view kBadClientName =
    "ERR Client names cannot contain spaces, newlines or special characters.";
inline constexpr std::string_view kBadUnblockReason = "ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR";
inline constexpr std::string_view kBadProtocolVersion = "ERR Protocol version is not an integer or out of range";
inline constexpr std::string_view kNoProto = "NOPROTO unsupported protocol version";
inline constexpr std::string_view kWrongPass = "WRONGPASS invalid username-password pair or user is disabled.";
inline constexpr std::string_view kAuthWithoutPassword =
    "ERR AUTH <password> called without any password configured for the default user. Are you sure your "
    "configuration is correct?";
inline constexpr std::string_view kHelloBeforeAuth =
    "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH <user> "
    "<pass> option can be used to authenticate the client and select the RESP protocol version at the same time";
inline constexpr std::string_view kNoAuth = "NOAUTH Authentication required.";
inline constexpr std::string_view kMaxClients = "ERR max number of clients reached";
inline std::string hello_syntax(std::string_view option) {
  return "ERR Syntax error in HELLO option '" + std::string(option) + "'";
}
inline std::string config_set_unknown(std::string_view name) {
  return "ERR Unknown option or number of arguments for CONFIG SET - '" + std::string(name) + "'";
}
// CONFIG SET's refusal of one of its arguments: `why` as config.c says it.
inline std::string config_set_failed(std::string_view name, std::string_view why) {
  return "ERR CONFIG SET failed (possibly related to argument '" + std::string(name) + "') - " + std::string(why);
}

}  // namespace locksim::engine::errors
