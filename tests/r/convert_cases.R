# The R side of the numpy/pandas conversion tests: for each case, the value R builds for the same
# data, described with rdesc() and serialized by jsonlite::toJSON (defaults, and digits = NA).
# Regenerate with:  TZ=UTC Rscript tests/r/convert_cases.R tests/data/convert-r.json
# The Python twin of every case (same id) is in tests/test_convert_r.py.
suppressMessages(library(jsonlite))

here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "..", "data", "conformance", "rdesc.R"))

ny <- "America/New_York"
utc <- function(...) as.POSIXct(c(...), tz = "UTC")
cases <- list(
  # numpy
  np_bool = c(TRUE, FALSE, TRUE),
  np_int8 = c(1L, -2L, 3L),
  np_int16 = c(1L, -2L, 3L),
  np_int32 = c(1L, -2L, 3L),
  np_int64 = c(1L, -2L, 3L),
  np_uint8 = c(1L, 2L, 255L),
  np_uint16 = c(1L, 2L, 65535L),
  np_uint32 = c(1L, 2L, 3L),
  np_uint64 = c(1L, 2L, 3L),
  np_int64_big = c(2147483648, 1),
  np_int32_min = c(-2147483648, 0),
  np_uint64_max = 18446744073709551615,
  np_float16 = c(1.5, NaN, Inf, -0),
  np_float32 = c(1.5, NaN, -Inf, 0.25),
  np_float64 = c(1.5, NaN, Inf, -0, 1e-300),
  np_float64_na = c(1, NA_real_, NaN),
  np_complex64 = complex(real = c(1, 0), imaginary = c(2, -1)),
  np_complex128 = complex(real = c(1.5, 0), imaginary = c(2, -1)),
  np_str = c("a", "\u00e9", ""),
  np_bytes = c("ab", "c"),
  np_stringdtype = c("a", NA, "b"),
  np_object_str = c("a", NA, NA),
  np_object_int = c(1L, NA, 3L),
  np_object_float = c(1.5, NA, NA),
  np_object_bool = c(TRUE, NA),
  np_object_none = c(NA, NA),
  np_object_mixed = list(1L, "a", NULL),
  np_object_lists = list(list(1L, 2L), list(a = 2L)),
  np_object_dates = as.Date(c("2020-01-02", NA)),
  np_datetime_D = as.Date(c("2020-01-02", NA, "1969-12-31")),
  np_datetime_M = as.Date(c("2020-01-01", "2020-02-01")),
  np_datetime_s = utc("2020-01-02 03:04:05", NA),
  np_datetime_ms = utc("2020-01-02 03:04:05.25", NA),
  np_datetime_us = utc("2020-01-02 03:04:05", NA, "1960-06-01 00:00:00"),
  np_datetime_ns = utc("2020-01-02 03:04:05", NA),
  np_timedelta_s = as.difftime(c(90, NA, -1.5), units = "secs"),
  np_matrix = matrix(1:6, nrow = 2, byrow = TRUE),
  np_matrix_str = matrix(c("a", "b", "c", "d"), nrow = 2, byrow = TRUE),
  np_array3d = aperm(array(0:23, dim = c(4L, 3L, 2L)), 3:1),
  np_fortran = matrix(c(1.5, 2.5, 3.5, 4.5), nrow = 2),
  np_strided = c(0L, 2L, 4L, 6L, 8L),
  np_bigendian = c(1.5, 2),
  np_bigendian_int = c(1L, 258L),
  np_masked_int = c(1L, NA, 3L),
  np_masked_float = c(1.5, NA, NaN),
  np_masked_str = c("a", NA),
  np_masked_bool = c(NA, FALSE),
  np_masked_complex = complex(real = c(1, NA), imaginary = c(-1, NA)),
  np_masked_datetime = utc("2020-01-02 03:04:05", NA),
  np_masked_structured = data.frame(a = c(1L, NA), b = c(NA, "y")),
  np_datetime_h = utc("2020-01-02 05:00:00"),
  np_structured = data.frame(a = c(1L, 3L), b = c(2.5, 4.5), c = c("x", "y")),
  np_empty_float = numeric(0),
  np_empty_int = integer(0),
  np_empty_str = character(0),
  np_empty_object = logical(0),
  np_0d = 3.5,
  np_readonly = c(1, 2),
  # pandas
  pd_numpy_frame = data.frame(i = c(1L, 2L, NA_integer_)[1:2], f = c(0.5, NaN), b = c(TRUE, FALSE),
                              i32 = c(7L, -7L)),
  pd_nullable_int = data.frame(i8 = c(1L, NA), i16 = c(-2L, NA), i32 = c(3L, NA), i64 = c(4L, NA),
                               u8 = c(5L, NA), u16 = c(6L, NA), u32 = c(7L, NA), u64 = c(8L, NA)),
  pd_nullable_int64_big = data.frame(x = c(3000000000, NA)),
  pd_nullable_float = data.frame(f32 = c(1.5, NA), f64 = c(NA, 2.25)),
  pd_uint64_big = data.frame(x = c(4294967295, NA)),
  pd_int64_extremes = data.frame(x = c(-9223372036854775807, 9223372036854775807)),
  pd_category_empty = data.frame(f = factor(character(0), levels = c("a", "b"))),
  pd_boolean = data.frame(b = c(TRUE, NA, FALSE)),
  pd_strings = data.frame(python = c("a", NA), pyarrow = c("b", NA), default = c("c", NA)),
  pd_category = data.frame(
    u = factor(c("b", NA, "a"), levels = c("b", "a", "zz")),
    o = factor(c("lo", "hi", NA), levels = c("lo", "hi"), ordered = TRUE),
    i = factor(c(3L, 1L, NA), levels = c(1L, 2L, 3L)),
    f = factor(c(0.5, 1e5, 0.5))
  ),
  pd_datetime_naive = data.frame(
    ns = utc("2020-01-02 03:04:05", NA), us = utc("2021-06-01 12:00:00", NA),
    ms = utc("1999-12-31 23:59:59", NA), s = utc("2000-01-01 00:00:00", NA)
  ),
  pd_datetime_tz = data.frame(
    ny = as.POSIXct(c("2020-03-08 01:30:00", "2020-03-08 03:30:00", NA), tz = ny),
    u = as.POSIXct(c("2020-01-01 00:00:00", "2020-07-01 12:00:00", NA), tz = "UTC"),
    off = as.POSIXct(c("2020-01-01 10:00:00", "2020-07-01 10:00:00", NA), tz = "UTC")
  ),
  pd_timedelta = data.frame(d = as.difftime(c(86400, NA), units = "secs")),
  pd_object_cols = data.frame(s = c("a", NA, NA), i = c(1L, NA, 3L), f = c(1.5, NA, 2),
                              b = c(TRUE, NA, FALSE), d = as.Date(c("2020-01-02", NA, "2020-01-03"))),
  pd_object_nan = data.frame(n = c(1L, NA, 3L), f = c(1.5, NA, NA), b = c(TRUE, NA, FALSE),
                             s = c("a", NA, "c"), z = complex(real = c(1, NA, 3), imaginary = c(2, NA, 0))),
  pd_object_mixed = local({ d <- data.frame(k = 1:3); d$m <- list(1L, "a", NULL); d$l <- list(list(1L), list(a = 2L), NULL); d }),
  pd_index_str = data.frame(a = c(1L, 2L), row.names = c("x", "y")),
  pd_index_int = data.frame(a = c(1L, 2L), row.names = c(10L, 20L)),
  pd_index_range1 = data.frame(a = c(1L, 2L), row.names = 1:2),
  pd_index_float = data.frame(a = c(1L, 2L), row.names = c(1.5, 2.5)),
  pd_index_date = data.frame(a = c(1L, 2L), row.names = as.Date(c("2020-01-01", "2020-01-02"))),
  pd_index_datetime = data.frame(a = c(1L, 2L), row.names = utc("2020-01-01 00:00:00", "2020-01-02 10:00:05.5")),
  pd_index_midnight = data.frame(a = c(1L, 2L), row.names = as.POSIXct(c("2020-01-01 00:00:00", "2020-01-02 00:00:00"), tz = ny)),
  pd_category_datetime = factor(utc("2020-01-02 03:04:05", "2020-01-01 00:00:00", NA)),
  pd_series_datetime_index = c(`2020-01-01` = 1L, `2020-01-02` = 2L),
  pd_empty = data.frame(),
  pd_zero_rows = data.frame(a = integer(0), b = logical(0), c = character(0)),
  pd_multiindex_cols = data.frame(a.x = 1L, a.y = 2.5, b = "q", check.names = FALSE),
  pd_duplicate_cols = setNames(data.frame(1L, 2L), c("a", "a")),
  pd_int_labels = setNames(data.frame(1L, "x"), c("0", "1")),
  pd_series = c(1.5, 2),
  pd_series_named = c(a = 1.5, b = 2),
  pd_series_int_index = c(`10` = 1L, `20` = 2L),
  pd_series_category = factor(c("x", "y", "x")),
  pd_index = c("a", "b"),
  pd_range_index = 0:2,
  pd_arrow_int = data.frame(x = c(1L, NA), b = c(TRUE, NA), f = c(0.5, NA)),
  # Python values
  py_dict_nested = list(a = 1L, b = list(TRUE, NULL), c = list(d = "x")),
  py_dataclass = list(name = "p", size = 2.5, tags = list("a", "b")),
  py_attrs = list(x = 1L, y = NULL),
  py_decimal = 1.25,
  py_timedelta = as.difftime(90.5, units = "secs"),
  py_datetime_aware = as.POSIXct("2020-06-01 12:00:00", tz = ny),
  py_datetime_offset = as.POSIXct("2020-06-01 10:00:00", tz = "UTC"),
  py_datetime_naive = as.POSIXct("2020-06-01 12:00:00", tz = "UTC"),
  py_date = as.Date("2020-06-01")
)

serialize <- function(x, ...) {
  r <- tryCatch(list(json = as.character(toJSON(x, ...))), error = function(e) list(error = conditionMessage(e)))
  r
}

out <- lapply(names(cases), function(id) {
  x <- cases[[id]]
  list(id = id, value = rdesc(x), json = serialize(x), json_digits_na = serialize(x, digits = NA))
})
args <- commandArgs(trailingOnly = TRUE)
text <- toJSON(out, auto_unbox = TRUE, null = "null", na = "null", digits = NA, pretty = TRUE)
if (length(args)) writeLines(text, args[[1]]) else writeLines(text)
