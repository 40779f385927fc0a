# Merges static archives into one (run as a script at build time by cmake/install.cmake):
#   cmake -DAR=ar -DRANLIB=ranlib -DOUT=libcuzk.a -DWORK=dir -DINPUTS="a.a;b.a"
#         [-DLD=ld -DOBJCOPY=objcopy -DKEEP=cuzk_*] -P merge_archives.cmake
# With LD, OBJCOPY and KEEP, the members are linked into one relocatable object (ld -r), whose
# defined global symbols other than those matching KEEP are then made local (objcopy): the
# archive exports the library's API names alone, so the layers' internal functions and blst's
# cannot clash with a program's own (or its own blst).
# Each input is extracted into a folder of its own, so members of the same name in two archives
# (config.c.o of two layers) stay apart; the members are then added in their archives' order.
# Plain `ar` extract and add work with GNU ar and llvm-ar alike, where an MRI script (ar -M)
# breaks on paths holding characters such as '+'. The result is written under a temporary name
# and renamed, so an interrupted build never leaves a half archive behind.
foreach(v AR RANLIB OUT WORK INPUTS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "merge_archives: ${v} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(members)
set(i 0)
foreach(lib IN LISTS INPUTS)
  math(EXPR i "${i} + 1")
  file(MAKE_DIRECTORY "${WORK}/${i}")
  execute_process(COMMAND "${AR}" t "${lib}" OUTPUT_VARIABLE names RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "merge_archives: cannot list ${lib}")
  endif()
  string(REGEX REPLACE "\n$" "" names "${names}")
  string(REPLACE "\n" ";" names "${names}")
  # Extraction into one folder keeps only the last of two members of the same name: refuse
  # that rather than drop code silently.
  set(seen ${names})
  list(REMOVE_DUPLICATES seen)
  list(LENGTH names n_all)
  list(LENGTH seen n_unique)
  if(NOT n_all EQUAL n_unique)
    message(FATAL_ERROR "merge_archives: ${lib} holds two members of the same name")
  endif()
  execute_process(COMMAND "${AR}" x "${lib}" WORKING_DIRECTORY "${WORK}/${i}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "merge_archives: cannot extract ${lib}")
  endif()
  foreach(m IN LISTS names)
    list(APPEND members "${i}/${m}")
  endforeach()
endforeach()

if(DEFINED LD AND DEFINED OBJCOPY AND DEFINED KEEP)
  execute_process(COMMAND "${LD}" -r -o library.o ${members} WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc)
  if(rc EQUAL 0)
    execute_process(COMMAND "${OBJCOPY}" --wildcard "--keep-global-symbol=${KEEP}" library.o
                    WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc)
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "merge_archives: cannot link the members into one object with its API symbols kept")
  endif()
  set(members library.o)
endif()

file(REMOVE "${OUT}.tmp")
execute_process(COMMAND "${AR}" qc "${OUT}.tmp" ${members} WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc)
if(rc EQUAL 0)
  execute_process(COMMAND "${RANLIB}" "${OUT}.tmp" RESULT_VARIABLE rc)
endif()
if(NOT rc EQUAL 0)
  file(REMOVE "${OUT}.tmp")
  message(FATAL_ERROR "merge_archives: cannot write ${OUT}")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
file(REMOVE_RECURSE "${WORK}")
