# Writes OUT, a C++ file defining `const char* const NAME` in namespace NAMESPACE as the text of IN,
# so that files kept as real files (a page's CSS and JavaScript) are compiled into the program:
#   cmake -DIN=<file> -DOUT=<file.cpp> -DNAME=<symbol> -DNAMESPACE=<ns> -DHEADER=<include> -P embed.cmake
file(READ "${IN}" content)
set(delimiter "locksim_embed")
string(FIND "${content}" ")${delimiter}\"" found)
if(NOT found EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw string delimiter )${delimiter}\"")
endif()
file(WRITE "${OUT}.tmp"
  "// Generated from ${IN} by cmake/embed.cmake: edit that file, not this one.\n"
  "#include \"${HEADER}\"\n\nnamespace ${NAMESPACE} {\n\n"
  "const char* const ${NAME} = R\"${delimiter}(${content})${delimiter}\";\n\n}  // namespace ${NAMESPACE}\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
