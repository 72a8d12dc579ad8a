# print_cases.R OUT.json [RDESC.R]   (RDESC.R defaults to tests/data/conformance/rdesc.R)
# The R oracle for rvalues' printing and number formatting. Run with TZ=UTC:
#   TZ=UTC Rscript tests/r/print_cases.R tests/data/print-r-4.2.2.json
# Writes one JSON array; each entry is one case:
#   {"id", "kind", "expr", "value": rdesc, "output": ..., "digits"?}
# kinds:
#   print         output = capture.output(print(x)) joined with "\n"
#   as_character  output = as.character(x) (null for NA)
#   format        output = format(x, digits = digits) (the common formatting of a vector)
#   format_each   output = vapply(x, format, "", digits = digits) (what jsonlite's prettyNum does)
#   format_info   output = format.info(x, digits = digits)
#   print_options like print, under "options": {"width": w, "max.print": m}
# Complex values also carry "parts": {"re": [...], "im": [...]} (double strings as in rdesc), since
# rdesc describes NaN+1i as NA.
suppressMessages(library(jsonlite))
args <- commandArgs(trailingOnly = TRUE)
out_file <- if (length(args) >= 1) args[[1]] else "print-r-4.2.2.json"
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
rdesc_file <- if (length(args) >= 2) args[[2]] else file.path(here, "..", "data", "conformance", "rdesc.R")
source(rdesc_file)
options(width = 80, digits = 7, scipen = 0)

cases <- list()
add <- function(kind, expr, x, output, digits = NULL) {
  entry <- list(id = length(cases) + 1L, kind = kind, expr = expr, value = rdesc(x), output = output)
  if (!is.null(digits)) entry$digits <- digits
  # rdesc describes every complex with a NaN part as NA; keep the exact parts beside it
  if (is.complex(x)) entry$parts <- list(re = I(rdesc_double(Re(x))), im = I(rdesc_double(Im(x))))
  cases[[length(cases) + 1L]] <<- entry
}
na_null <- function(s) lapply(s, function(v) if (is.na(v)) NULL else v)

print_case <- function(expr) {
  x <- eval(parse(text = expr), envir = globalenv())
  add("print", expr, x, paste(capture.output(print(x)), collapse = "\n"))
}

# ---- numbers: as.character, format, format.info ------------------------------------------------
set.seed(20221031)
mag <- 10^sample(-20:20, 200, replace = TRUE)
random_doubles <- c(rnorm(200) * mag, round(runif(100) * 10^sample(0:9, 100, TRUE), sample(0:6, 100, TRUE)),
                    sample(-1e6:1e6, 50) / 8, 2^sample(-60:60, 50))
special_doubles <- c(0, -0, 1, -1, 0.1, 0.1 + 0.2, 1 / 3, 2 / 3, 1e5, 123456, 1e15, 1e16, 1e-5, 1e-4,
                     0.0001234, 100, 1e22, 1e23, 123456789012, 1234567890123456789, 9999999.7, 99999.95,
                     0.99999999, 9.9999999e-5, 5e-324, 2.225e-308, 1.7976931348623157e308, pi, exp(1),
                     1e300, 1e-300, 314159.26535, 1.5, 2.5, 0.15, 0.25, 1e-15, 123.456, 1/7, 22/7,
                     NA, NaN, Inf, -Inf)
all_doubles <- c(special_doubles, random_doubles)
add("as_character", "as.character(<doubles>)", all_doubles, na_null(as.character(all_doubles)))

vectors <- list(
  "c(1, 2.5, 3)", "c(1.123456789, 123456.7)", "c(1e10, 1)", "c(1e-10, 1)", "c(0.1, 0.123456789)",
  "c(1e5, 1e-5)", "c(123456, 1e-3)", "c(NA, 1.5, NaN, Inf, -Inf)", "c(NA_real_)", "c(NaN, Inf)",
  "c(-1.5, 2, 1e6)", "c(1e300, 1e-300)", "c(9999999.7, 1)", "c(99999.95, 0.5)", "c(0, -0)",
  "c(100, 1e15)", "c(1/3, 2/3, 1)", "c(1e100, 1)", "c(1e-100, 1)", "c(3.00, 4.10)",
  "c(0.00001234, 123456)", "c(1e5, 123456)", "c(5e-324, 1)", "c(-Inf, 1)"
)
for (expr in vectors) {
  x <- eval(parse(text = expr))
  for (d in c(1L, 2L, 3L, 4L, 5L, 7L, 10L, 15L, 16L, 17L)) {
    add("format", expr, x, na_null(format(x, digits = d)), digits = d)
    add("format_info", expr, x, as.list(format.info(x, digits = d)), digits = d)
  }
}
chunks <- split(random_doubles, rep(1:45, length.out = length(random_doubles)))
for (k in seq_along(chunks)) {
  x <- chunks[[k]][1:min(3, length(chunks[[k]]))]
  d <- c(1L, 3L, 4L, 7L, 12L, 15L)[(k %% 6) + 1]
  add("format", "<random doubles>", x, na_null(format(x, digits = d)), digits = d)
}
for (d in c(1L, 4L, 7L, 15L)) {
  add("format_each", "<doubles>", special_doubles, vapply(special_doubles, format, "", digits = d), digits = d)
}

complexes <- c(1 + 2i, 1234567.891 + 0.000123i, 3.14159265 - 1i, 1e10 + 1i, NA, complex(real = Inf, imaginary = 1),
               complex(real = 1, imaginary = -Inf), complex(real = NaN, imaginary = 1), 0i, -1.5 - 2.25i,
               1e-10 + 1i, 123.456 + 0.001i, 1 / 3 + 2i / 3, complex(real = -0, imaginary = -0),
               complex(real = 1e300, imaginary = 1e-300), 0.1 + 0.2i, 1i, -1i, 100 + 1e5i,
               complex(real = NA_real_, imaginary = 1), complex(real = 1, imaginary = NaN),
               complex(real = rnorm(20) * 10^sample(-8:8, 20, TRUE), imaginary = rnorm(20) * 10^sample(-8:8, 20, TRUE)))
add("as_character", "as.character(<complexes>)", complexes, na_null(as.character(complexes)))
for (d in c(1L, 2L, 4L, 7L, 10L, 15L)) {
  add("format_each", "<complexes>", complexes, vapply(complexes, format, "", digits = d), digits = d)
}
for (expr in list("c(1+2i, 3.5-1i)", "c(1e10+1i, 1)", "c(1234567.891+0.000123i, 1i)", "c(NA, 1+1i)",
                  "c(0.1+0i, 10+0i)", "c(0+1i, 0+2.5i)", "c(1+2i, complex(real = Inf, imaginary = -1))")) {
  x <- eval(parse(text = expr))
  for (d in c(3L, 7L, 15L)) add("format", expr, x, na_null(format(x, digits = d)), digits = d)
}

# ---- print ---------------------------------------------------------------------------------------
print_exprs <- c(
  # atomic vectors
  "1:3", "1:30", "1:100", "-5:5", "c(1L, NA, -20L)", "integer(0)", "numeric(0)", "character(0)",
  "logical(0)", "complex(0)", "raw(0)", "c(TRUE, NA, FALSE)", "TRUE", "NA", "NA_integer_", "NA_real_",
  "NA_character_", "NA_complex_", "c(1.5, NA, NaN, Inf, -Inf)", "c(1, 2.5, 3)", "1e5", "123456", "1e15",
  "0.1 + 0.2", "1/3", "pi * 1e5", "c(1.123456789, 123456.7)", "1e-300", "c(1e10, 1)", "123456789",
  "1234567.1", "c(-1.5, 2, NA)", "seq(0, 1, by = 0.1)", "(1:40) / 7", "2^(0:40)", "exp(-20:5)",
  "c(0.00001234, 123456)", "100000", "1e5 + 0.1", "c(9999999.7, 1)",
  "c(1+2i, NA, 3.5-1i)", "complex(real = Inf, imaginary = 1)", "1e10+1i", "c(1i, -1i, 0i)",
  "complex(real = 1:12, imaginary = (12:1) / 3)", "complex(real = NaN, imaginary = 1)",
  "as.raw(c(1, 255, 16))", "as.raw(0:40)",
  "c(\"a\", NA, \"b\\\"c\")", "\"tab\\there\"", "\"new\\nline\"", "\"back\\\\slash\"", "\"it's\"",
  "\"\\u00e9t\\u00e9\"", "\"\\u65e5\\u672c\\u8a9e\"", "c(\"\\u65e5\\u672c\", \"a\", NA)", "\"\\001\\177\"",
  "\"\\u0080x\"", "\"bell\\a\\b\\f\\r\\v\"", "letters", "month.name", "c(\"\", \" \", \"NA\")",
  "\"\\U0001F600\"", "\"\\u200b\"", "\"e\\u0301\"",
  # named vectors
  "c(a = 1, b = 2)", "c(a = 1L, bb = NA, ccc = 3L)", "setNames(1:26, letters)", "setNames((1:26) / 3, LETTERS)",
  "c(x = \"a\", y = NA, zz = \"long string\")", "c(first = TRUE, second = NA)", "c(a = 1+1i, b = NA, c = -2.5i)",
  "setNames(as.raw(1:3), c(\"a\", \"b\", \"c\"))", "setNames(c(1.5, 2, 3), c(\"a\", NA, \"\"))",
  "setNames(1:3, c(\"a very long name indeed\", \"b\", \"c\"))", "structure(numeric(0), names = character(0))",
  "c(\"\\u65e5\\u672c\" = 1, a = 2)", "setNames(1:12, month.name)",
  # factors
  "factor(c(\"a\", \"b\", NA, \"a\"))", "factor(character(0))", "factor(c(\"lo\", \"hi\"), levels = c(\"lo\", \"hi\"), ordered = TRUE)",
  "factor(c(\"a\", \"b\"), levels = c(\"a\", \"b\", \"c\"))", "factor(letters)", "factor(month.name, levels = month.name)",
  "factor(c(\"x\", NA), exclude = NULL)", "ordered(c(3, 1, 2))", "factor(rep(c(\"alpha\", \"beta\"), 20))",
  "setNames(factor(c(\"u\", \"v\")), c(\"n1\", \"n2\"))", "factor(c(NA, NA), levels = c(\"a\"))",
  # dates and times
  "as.Date(\"2020-01-02\")", "as.Date(c(\"2020-01-02\", NA, \"1969-12-31\"))", "as.Date(character(0))",
  "as.Date(\"2020-01-01\") + 0:20", "setNames(as.Date(c(\"2020-01-02\", \"2021-03-04\")), c(\"a\", \"b\"))",
  "as.POSIXct(\"2020-01-02 03:04:05\", tz = \"UTC\")", "as.POSIXct(\"2020-01-02\", tz = \"UTC\")",
  "as.POSIXct(c(\"2020-01-02 03:04:00\", \"2020-06-01 12:30:00\"), tz = \"UTC\")",
  "as.POSIXct(c(\"2020-01-02 03:04:05\", \"2020-07-02 03:04:05\"), tz = \"America/New_York\")",
  "as.POSIXct(\"2020-01-02 03:04:05.75\", tz = \"UTC\")", "as.POSIXct(c(\"2020-01-02 03:04:05\", NA), tz = \"UTC\")",
  "as.POSIXct(\"2020-01-02 03:04:05\", tz = \"Europe/Paris\")", "as.POSIXct(\"2020-01-02 03:04:05\", tz = \"Asia/Tokyo\")",
  "as.POSIXct(\"1969-12-31 23:59:59\", tz = \"UTC\")", ".POSIXct(numeric(0), tz = \"UTC\")",
  "as.POSIXct(\"2020-01-02 03:04:05\", tz = \"Etc/GMT+5\")", ".POSIXct(1577934245, tz = \"\")",
  # lists and NULL
  "NULL", "list()", "setNames(list(), character(0))", "list(1, \"a\")", "list(a = 1, b = list(c = 2, d = \"x\"))",
  "list(NULL)", "list(a = NULL)", "list(1, list(2, list(3)))", "list(`a b` = 1, `NA` = 2)",
  "setNames(list(1, 2), c(\"x\", NA))", "setNames(list(1, 2), c(\"x\", \"\"))", "list(f = factor(\"a\"), d = as.Date(\"2020-01-02\"))",
  "list(df = data.frame(x = 1:2))", "structure(list(1), myattr = \"z\")", "list(a = list())", "list(list())",
  "list(a = c(x = 1, y = 2), b = 1:30)", "list(1:3, letters[1:3], c(TRUE, NA))",
  # data frames
  "data.frame()", "data.frame(a = integer(0))", "data.frame(a = integer(0), b = character(0))",
  "data.frame(x = 1:3, y = c(\"a\", NA, \"c\"))", "data.frame(x = c(1.5, NA, -3), f = factor(c(\"u\", NA, \"v\")), l = c(TRUE, NA, FALSE))",
  "data.frame(x = c(0.001234, 123.4, 1e6), y = c(1e-10, 1, 1e10))", "data.frame(n = c(a = 1, b = 2), row.names = c(\"r1\", \"r2\"))",
  "data.frame(d = as.Date(c(\"2020-01-02\", NA)), t = as.POSIXct(c(\"2020-01-02 03:04:05\", NA), tz = \"UTC\"))",
  "data.frame(z = c(1+2i, NA))", "data.frame(s = c(\"a\\nb\", \"\\u65e5\\u672c\", \"tab\\t\"))",
  "data.frame(a = 1:3, b = letters[1:3])[0, ]", "data.frame(x = 1:12, y = (1:12) / 7, z = month.name)",
  "as.data.frame(matrix(round((1:30) * 1234.5678, 2), 2))", "data.frame(x = 1)[, 0, drop = FALSE]",
  "data.frame(`a b` = 1, check.names = FALSE)", "data.frame(x = c(NA_character_, \"NA\"))",
  "data.frame(x = I(list(1, \"a\")))", "data.frame(x = 1:2, row.names = c(\"\\u65e5\\u672c\", \"b\"))",
  "data.frame(r = as.raw(1:2), i = c(NA, 2L))",
  # matrices and arrays
  "matrix(1:6, 2)", "matrix(c(1.5, NA, 3, 4), 2)", "matrix(c(\"a\", NA, \"ccc\", \"d\"), 2)",
  "matrix(c(TRUE, FALSE, NA, TRUE), 2)", "matrix(1:4, 2, dimnames = list(c(\"r1\", \"r2\"), c(\"A\", \"B\")))",
  "matrix(1:4, 2, dimnames = list(NULL, c(\"A\", \"B\")))", "matrix(1:4, 2, dimnames = list(c(\"r1\", \"r2\"), NULL))",
  "matrix(1:4, 2, dimnames = list(rows = c(\"a\", \"b\"), cols = c(\"x\", \"y\")))", "matrix(numeric(0), 0, 3)",
  "matrix(numeric(0), 3, 0)", "matrix(numeric(0), 0, 0)", "matrix((1:40) * 1000.5, 2)", "matrix(c(1+1i, 2-3.5i), 1)",
  "matrix(as.raw(1:4), 2)", "array(1:24, c(2, 3, 4))", "array(1:8, c(2, 2, 2), dimnames = list(c(\"a\", \"b\"), c(\"c\", \"d\"), c(\"e\", \"f\")))",
  "array(1:3, 3)", "array(1:3, 3, dimnames = list(c(\"a\", \"b\", \"c\")))", "array(numeric(0), c(2, 0, 2))",
  "matrix(list(1, \"a\", TRUE, NULL), 2)", "matrix(c(\"\\u65e5\\u672c\", \"a\"), 1)", "array(1:4, c(1, 2, 2))",
  "matrix(c(-1.5, 100, 2e10, 3), 2)", "matrix(c(\"a\\\"b\", \"x\"), 1)",
  # attributes, AsIs, scalar
  "structure(1:3, myattr = \"hello\")", "structure(1:3, class = \"foo\")", "structure(c(a = 1), extra = list(1, 2))",
  "I(1:3)", "I(\"a\")", "I(c(a = 1.5))", "structure(1:4, dim = c(2, 2), note = 1)", "structure(list(a = 1), class = \"bar\")",
  "jsonlite::unbox(1)", "jsonlite::unbox(\"a\")", "jsonlite::unbox(TRUE)", "jsonlite::unbox(1.5)", "jsonlite::unbox(NA)",
  "jsonlite::unbox(data.frame(x = 1, y = \"a\"))", "jsonlite::unbox(NA_real_)", "jsonlite::unbox(NA_character_)",
  "jsonlite::unbox(pi)", "jsonlite::unbox(as.Date(\"2020-01-02\"))", "jsonlite::unbox(factor(\"a\"))",
  # wider and harder layouts
  "as.data.frame(matrix(1:60 * 1e5, 2))", "data.frame(long_column_name_one = 1:2, b = c(\"x\", \"y\"), long_column_name_two = c(1.5, 2))",
  "factor(paste0(\"level_number_\", 1:30))", "factor(paste0(\"lv\", 1:12), levels = paste0(\"lv\", 1:12), ordered = TRUE)",
  "matrix(rnorm(60), 3)", "matrix(1:4, 2, dimnames = list(a = c(\"x\", \"y\"), c(\"p\", \"q\")))",
  "matrix(c(\"a\", \"b\"), 1, dimnames = list(\"r\", c(\"c1\", NA)))", "list(a = structure(1:2, foo = \"bar\"))",
  "list(a = list(b = list(c = 1:3)))", "structure(list(x = 1, y = \"a\"), extra = TRUE)", "c(-0, 0)",
  "as.Date(c(18262.5, -1), origin = \"1970-01-01\")", "c(a = NA_real_, b = NaN)", "setNames(c(TRUE, FALSE), c(\"\u65e5\u672c\u8a9e\", \"b\"))",
  "rnorm(25)", "c(123456789012, 1)", "1:1000", "setNames(1:3, c(\"a\\nb\", \"c\", \"d\"))",
  "list(\"a\\tb\" = 1)", "data.frame(x = c(-1, 10, 100), y = c(0.5, NA, 1e-20))",
  "as.POSIXct(c(\"2020-01-02\", \"2020-01-03\"), tz = \"America/New_York\")",
  "array(1:12, c(2, 3, 2), dimnames = list(A = c(\"a1\", \"a2\"), B = c(\"b1\", \"b2\", \"b3\"), C = c(\"c1\", \"c2\")))",
  "array(1:6, c(2, 3, 1, 1))", "array(integer(0), c(2, 3, 0))", "matrix(c(1e-10, 1, 1e10, NA), 2)",
  "I(data.frame(x = 1:2))", "I(factor(\"a\"))", "I(list(1, 2))", "structure(list(), names = character(0), foo = 1)"
)
# random values with fixed seeds: vectors of mixed magnitudes, named vectors, matrices, data frames
random_exprs <- c(
  sprintf("local({set.seed(%d); x <- round(rnorm(sample(1:40, 1)) * 10^sample(-6:9, 1), sample(0:7, 1)); x[sample(length(x), 1)] <- NA; x})", 1:25),
  sprintf("local({set.seed(%d); setNames(signif(runif(12) * 10^sample(-3:6, 12, TRUE), 4), sample(c(letters, LETTERS, \"long_name\"), 12))})", 1:8),
  sprintf("local({set.seed(%d); matrix(round(rnorm(24) * 1000, sample(0:3, 1)), sample(c(2, 3, 4, 6), 1))})", 1:8),
  sprintf("local({set.seed(%d); data.frame(n = round(rexp(6) * 100, 2), i = sample(c(-50:50, NA), 6), s = sample(c(month.abb, NA), 6), f = factor(sample(c(\"lo\", \"mid\", \"hi\", NA), 6, TRUE)), b = sample(c(TRUE, FALSE, NA), 6, TRUE))})", 1:8),
  sprintf("local({set.seed(%d); complex(real = round(rnorm(5), 3), imaginary = round(rnorm(5) * 100, 1))})", 1:5),
  sprintf("local({set.seed(%d); .POSIXct(1.6e9 + round(runif(4) * 1e8), tz = sample(c(\"UTC\", \"Europe/London\", \"America/Los_Angeles\", \"Australia/Sydney\"), 1))})", 1:6)
)
print_exprs <- c(print_exprs,
  "data.frame(a = 1:2, m = I(matrix(1:4, 2)))", "data.frame(a = 1:2, d = data.frame(p = c(\"x\", \"y\"), q = 3:4))",
  "list(1, NULL, list())", "list(`if` = 1, `.2x` = 2, ...length = 3, `_a` = 4)", "setNames(list(1), \"a\\nb\")",
  "structure(1:3, class = c(\"foo\", \"bar\"))", "structure(factor(c(\"a\", \"b\")), note = \"n\")",
  "structure(as.Date(\"2020-01-02\"), class = c(\"myDate\", \"Date\"))",
  "as.POSIXct(\"2020-03-08 02:30:00\", tz = \"UTC\") + c(0, 3600)", "as.POSIXct(\"1900-06-01 12:00:00\", tz = \"America/New_York\")",
  "c(a = \"x\", b = \"\u65e5\u672c\u8a9e\u306e\u6587\u5b57\")", "paste0(\"string number \", 1:12)",
  "as.Date(c(Inf, -Inf, NaN, NA, 0), origin = \"1970-01-01\")", ".POSIXct(c(Inf, NA, 0, NaN), tz = \"UTC\")",
  "data.frame(d = as.Date(c(Inf, 1), origin = \"1970-01-01\"))", "as.Date(c(-719163, 2932897, 3e6, -800000), origin = \"1970-01-01\")",
  "as.Date(c(\"0005-03-04\", \"0099-01-01\", \"0999-12-31\", \"1000-01-01\"))", ".POSIXct(c(-1e11, 1e12), tz = \"UTC\")",
  ".POSIXct(-1e11, tz = \"America/New_York\")", ".POSIXct(1e12, tz = \"America/New_York\")",
  "matrix(list(strrep(\"x\", 120), factor(\"a\"), as.Date(\"2020-01-01\"), 1:3), 2)",
  "matrix(list(NA_character_, 1.5, NA, factor(c(\"a\", \"b\"))), 2)",
  "Reduce(function(acc, k) setNames(list(acc), strrep(letters[k %% 26 + 1], 40)), 1:8, 1)",
  "Reduce(function(acc, k) list(acc), 1:60, 1)",
  "jsonlite::toJSON(1:3)", "jsonlite::toJSON(list(a = 1, b = \"x\"), pretty = TRUE, auto_unbox = TRUE)",
  "c(1e-320, 1)", "c(.Machine$double.xmax, 1)", "1e100", "c(1.5, 2.25, 3.125) * 1e-8", "-1e-300",
  # difftime (what a pandas timedelta column becomes)
  "as.difftime(c(1.5, 60, NA), units = \"secs\")", "as.difftime(90, units = \"mins\")",
  "as.difftime(NA_real_, units = \"secs\")", "as.difftime(numeric(0), units = \"secs\")",
  "as.difftime(c(a = 1, b = 2), units = \"hours\")", "as.difftime(1e-20, units = \"weeks\")",
  "structure(matrix(1:4 + 0.5, 2), class = \"difftime\", units = \"days\")",
  "structure(2:3, class = \"difftime\", units = \"secs\")",
  "data.frame(d = as.difftime(c(1.5, 60, NA), units = \"secs\"), x = 1:3)",
  "data.frame(y = as.difftime(c(a = 1, b = 22.25), units = \"hours\"))"
)
for (expr in c(print_exprs, random_exprs)) print_case(expr)

# the same printers under other options: a narrow console and a small max.print
narrow_exprs <- c(
  "1:30", "(1:25) / 3", "letters", "setNames(1:10, letters[1:10])", "factor(letters)",
  "matrix(1:40, 4)", "array(1:60, c(3, 4, 5))", "data.frame(x = 1:30, y = (1:30) / 7)",
  "as.Date(\"2020-01-01\") + 0:30", ".POSIXct(1.6e9 + 0:30 * 3600, tz = \"UTC\")", "as.list(1:30)",
  "c(1+1i, 2-2i, NA)", "matrix(letters[1:24], 2)", "setNames(as.list(1:3), c(\"a\", \"b\", \"c\"))"
)
for (opt in list(list(width = 40L, max.print = 20L), list(width = 120L, max.print = 50L), list(width = 30L, max.print = 99999L))) {
  old <- options(width = opt$width, max.print = opt$max.print)
  for (expr in narrow_exprs) {
    x <- eval(parse(text = expr), envir = globalenv())
    add("print_options", expr, x, paste(capture.output(print(x)), collapse = "\n"))
    cases[[length(cases)]]$options <- opt
  }
  options(old)
}

writeLines(as.character(toJSON(cases, auto_unbox = TRUE, null = "null", na = "null", digits = NA, pretty = TRUE)),
           out_file, useBytes = TRUE)
