# mancheck: fails when groff prints any warning for a man page (run with cmake -P).
execute_process(COMMAND ${GROFF} -man -t -ww -z ${PAGE}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "groff warnings for ${PAGE}:\n${err}")
endif()
