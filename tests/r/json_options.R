# json_options.R CASES.R OPTION-SETS.json OUT.jsonl
# The corpus of tests/data/json-options: each case of CASES.R (its rdesc) and what jsonlite::toJSON
# gives for it under each option set (or the error it raises). An option set's "digits.secs" is
# R's options(digits.secs), set around the call; the rest are toJSON's arguments. Run with
# TZ=Europe/Berlin (the process's zone the values without a tzone are written in).
suppressMessages(library(jsonlite))
args <- commandArgs(trailingOnly = TRUE)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "..", "data", "conformance", "rdesc.R"))
source(args[[1]])
option_sets <- fromJSON(args[[2]], simplifyVector = FALSE)

write_with <- function(value, opts) {
  old <- options(digits.secs = opts[["digits.secs"]])
  on.exit(options(old))
  opts[["digits.secs"]] <- NULL
  as.character(do.call(toJSON, c(list(value), opts)))
}

con <- file(args[[3]], open = "w", encoding = "UTF-8")
for (i in seq_along(cases)) {
  value <- eval(parse(text = cases[[i]]), envir = new.env())
  outputs <- lapply(names(option_sets), function(name) {
    res <- tryCatch(
      suppressMessages(list(json = write_with(value, option_sets[[name]]))),
      error = function(e) list(error = conditionMessage(e))
    )
    c(list(options = name), res)
  })
  line <- list(id = sprintf("json-options-%03d", i), expr = cases[[i]], value = rdesc(value),
               outputs = outputs)
  writeLines(as.character(toJSON(line, auto_unbox = TRUE, null = "null", na = "null", digits = NA)),
             con, useBytes = TRUE)
}
close(con)
