# jsonlite's complex = "list" for a named complex column of a data frame: asJSON builds
# data.frame(real = Re(x), imaginary = Im(x)), which takes names(x) as row names (so "_row" is
# written) unless they are duplicated or all empty, and stops on NA names.
# Regenerate with:  Rscript tests/r/complex_rows.R tests/data/complex-rows.json
# The Python twin of every case (same id) is in tests/test_json_complex_rows.py.
suppressMessages(library(jsonlite))
z <- function(names, values = c(1+3i, 2+4i)[seq_along(names)]) setNames(values, names)
cases <- list(
  named = list(list2DF(list(z = z(c("a", "b")))), list()),
  named_columns = list(list2DF(list(z = z(c("a", "b")))), list(dataframe = "columns")),
  named_values = list(list2DF(list(z = z(c("a", "b")))), list(dataframe = "values")),
  named_pretty = list(list2DF(list(z = z(c("a", "b")))), list(pretty = TRUE)),
  named_no_rownames = list(list2DF(list(z = z(c("a", "b")))), list(rownames = FALSE)),
  named_with_int = list(list2DF(list(z = z(c("a", "b")), k = 1:2)), list()),
  na_value = list(list2DF(list(z = z(c("a", "b"), c(1+3i, NA)))), list()),
  na_value_string = list(list2DF(list(z = z(c("a", "b"), c(1+3i, NA)))), list(na = "string")),
  na_name = list(list2DF(list(z = z(c("a", NA)))), list()),
  na_names_duplicated = list(list2DF(list(z = z(c(NA, NA)))), list()),
  duplicated = list(list2DF(list(z = z(c("a", "a")))), list()),
  one_empty = list(list2DF(list(z = z(c("", "b")))), list()),
  all_empty = list(list2DF(list(z = z(c("", "")))), list()),
  digits_only = list(list2DF(list(z = z(c("1", "2")))), list()),
  many_rows = list(list2DF(list(z = z(letters[1:20], complex(real = 1:20, imaginary = 20:1)))), list())
)
answer <- function(case) {
  tryCatch(
    list(json = as.character(do.call(toJSON, c(list(case[[1]], complex = "list"), case[[2]])))),
    error = function(e) list(error = conditionMessage(e))
  )
}
out <- lapply(cases, answer)
writeLines(as.character(toJSON(out, auto_unbox = TRUE, pretty = TRUE)), commandArgs(TRUE)[[1]], useBytes = TRUE)
