# format_batch.R IN.json OUT.json
# For the differential tests of rvalues.format (a case {"strings": [...]} asks how a character
# vector prints: quoted, unquoted, as names, and as a data-frame column): each case is {"re": [double strings], "im": [...]
# or absent, "digits": d}; R answers {as_character, format, format_each, print, print_named (names
# n1, n2, ...), print_matrix (as one row)} for the double (or complex, when "im" is given) vector. Doubles are rdesc strings ("%.17g", "NA", "NaN", ...).
suppressMessages(library(jsonlite))
args <- commandArgs(trailingOnly = TRUE)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "..", "data", "conformance", "rdesc.R"))
options(width = 80, digits = 7, scipen = 0)
cases <- fromJSON(args[[1]], simplifyVector = FALSE)
na_null <- function(s) lapply(s, function(v) if (is.na(v)) NULL else v)
answer_strings <- function(case) {
  x <- vapply(case$strings, function(v) if (is.null(v)) NA_character_ else v, "")
  list(print = paste(capture.output(print(x)), collapse = "\n"),
       print_noquote = paste(capture.output(print(x, quote = FALSE)), collapse = "\n"),
       print_named = paste(capture.output(print(setNames(seq_along(x), x))), collapse = "\n"),
       frame = paste(capture.output(print(data.frame(s = x))), collapse = "\n"))
}
answer <- function(case) {
  if (!is.null(case$strings)) return(answer_strings(case))
  x <- from_rdesc_double(case$re)
  if (!is.null(case$im)) x <- complex(real = x, imaginary = from_rdesc_double(case$im))
  d <- case$digits
  list(as_character = I(na_null(as.character(x))),
       format = I(na_null(format(x, digits = d))),
       format_each = I(vapply(x, format, "", digits = d)),
       print = paste(capture.output(print(x)), collapse = "\n"),
       print_named = paste(capture.output(print(setNames(x, paste0("n", seq_along(x))))), collapse = "\n"),
       print_matrix = paste(capture.output(print(matrix(x, 1))), collapse = "\n"))
}
writeLines(as.character(toJSON(lapply(cases, answer), auto_unbox = TRUE, null = "null", digits = NA)),
           args[[2]], useBytes = TRUE)
