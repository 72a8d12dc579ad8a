# The values tests/test_json_options_corpus.py writes under each option set of option-sets.json
# (jsonlite's UTC, time_format, json_verbatim, no_dots and R's options(digits.secs)).
cases <- c(
  # date-times: zones (tzone, the process's zone, UTC), fractions, NA and the other non-finite values
  "as.POSIXct('2024-01-01 00:00:06.5', tz = 'Europe/Berlin')",
  ".POSIXct(c(1704067206.25, NA, 1719792000))",
  ".POSIXct(c(0, 86400, NA, NaN, Inf, -Inf), tz = 'UTC')",
  ".POSIXct(c(0, 86400), tz = 'America/New_York')",
  "as.POSIXct(c('2020-03-08 01:59:59', '2020-03-08 03:00:00', '2020-11-01 01:30:00'), tz = 'America/New_York')",
  ".POSIXct(c(0.25, 1.1234567, 1e-7, 59.9999999, 1.5), tz = 'UTC')",
  ".POSIXct(c(-1e10, -3e10 + 0.5), tz = 'Europe/Berlin')",
  ".POSIXct(c(1e9 + 0.999, 1.7e9), tz = 'Asia/Kolkata')",
  ".POSIXct(1e9, tz = 'Etc/GMT')",
  ".POSIXct(2e9 + 0.125, tz = 'Australia/Lord_Howe')",
  ".POSIXct(numeric(0), tz = 'UTC')",
  ".POSIXct(c(NA_real_, NA_real_), tz = 'UTC')",
  "structure(c(a = 1e9, b = NA), class = c('POSIXct', 'POSIXt'), tzone = 'Asia/Tokyo')",
  "as.POSIXlt(.POSIXct(1e9 + 0.75, tz = 'America/New_York'))",
  "as.POSIXlt('2020-01-02 03:04:05', tz = 'UTC')",
  "as.POSIXlt(.POSIXct(c(0, NA, 86400.5), tz = 'Europe/Berlin'))",
  "unbox(.POSIXct(1.5, tz = 'UTC'))",
  "I(.POSIXct(1.5, tz = 'UTC'))",
  # date-times inside lists and data frames
  "list(when = .POSIXct(1e9, tz = 'UTC'), day = as.Date('2020-01-02'), n.a = list(x.y = 1, z = 'a'))",
  "data.frame(t = .POSIXct(c(1e9 + 0.5, NA, 1.7e9), tz = 'Asia/Tokyo'), a.b = c(1, NA, 3), d = as.Date(c('2020-01-01', NA, '1999-12-31')))",
  "data.frame(t = .POSIXct(1e9 + (0:39) * 3600.25, tz = 'Europe/Berlin'), n = 1:40)",
  "data.frame(t = as.POSIXlt(.POSIXct(c(0, 1e9), tz = 'America/New_York')))",
  "data.frame(a.b = 1:2, a_b = 3:4, row.names = c('r.1', 'r.2'))",
  # dates are not date-times: none of the time options touch them
  "as.Date(c('2020-01-02', NA, '1969-12-31'))",
  # class json
  "structure('{\"a\":[1,2]}', class = 'json')",
  "toJSON(list(a = 1, b = 'x'))",
  "list(j = structure('[1]', class = 'json'), k = structure(NA_character_, class = 'json'), l = 2)",
  "list(structure('true', class = 'json'), structure(NA_character_, class = 'json'))",
  "list(a = structure(c('1', '[2]'), class = 'json'))",
  "data.frame(j = I(structure(c('1', '[2]', NA), class = 'json')), n = 1:3)",
  "structure(1, class = 'json')",
  # names with dots
  "list(a.b = 1, c.d = list(e.f = 2), a_b = 3, .x = 4, y. = 5)",
  "c(a.b = 1, c = 2)",
  "list(`...` = 1, `.` = 2, `_` = 3)"
)
