# mcplite_cases.R OUT.json [RDESC.R]
# The R oracle for mcplite's return-value mappings and payload JSON options. Run with TZ=UTC:
#   TZ=UTC Rscript tests/r/mcplite_cases.R tests/data/mcplite-r.json
# Writes one JSON object: {"r", "jsonlite", "option_sets", "cases"}. Each case is
#   {"id", "kind", "expr", "value": rdesc, "outputs": {OPTION_SET: OUTPUT}}
# kinds (the seed's contract, written in R the way an R mcplite would compute it):
#   ordinary    OUTPUT = {"text": the one text block a tool returning the value gives}
#   structured  OUTPUT = {"present": false} for NULL, else {"present": true, "json": the structured
#               JSON (also the generated text fallback)}
# OUTPUT may be {"error": message} where jsonlite refuses the value.
# Option sets are mcplite option names (Python spelling); each maps to jsonlite arguments below.
suppressMessages(library(jsonlite))
args <- commandArgs(trailingOnly = TRUE)
out_file <- if (length(args) >= 1) args[[1]] else "mcplite-r.json"
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
rdesc_file <- if (length(args) >= 2) args[[2]] else file.path(here, "..", "data", "conformance", "rdesc.R")
source(rdesc_file)

# mcplite options (python names) for each set; `NULL` (absent) means the option is unset.
option_sets <- list(
  defaults = list(),
  na_null = list(json_na = "null"),
  na_string = list(json_na = "string"),
  null_list = list(json_null = "list"),
  boxed = list(json_auto_unbox = FALSE),
  na_null_boxed = list(json_na = "null", json_auto_unbox = FALSE)
)

# The jsonlite arguments an option set stands for: auto_unbox and null always given, na only when set.
jsonlite_args <- function(set) {
  out <- list(auto_unbox = if (is.null(set$json_auto_unbox)) TRUE else set$json_auto_unbox,
              null = if (is.null(set$json_null)) "null" else set$json_null)
  if (!is.null(set$json_na)) out$na <- set$json_na
  out
}

# jsonlite "json" objects are never inserted as raw JSON: they stay strings.
strip_json <- function(x) {
  if (is.character(x) && inherits(x, "json")) {
    cls <- setdiff(class(x), "json")
    class(x) <- if (length(cls)) cls else NULL
    return(x)
  }
  if (is.list(x) && length(x)) {
    at <- attributes(x)
    x <- lapply(unclass(x), strip_json)
    attributes(x) <- at
  }
  x
}

payload_json <- function(x, set) {
  as.character(do.call(toJSON, c(list(strip_json(x)), jsonlite_args(set))))
}

ordinary_text <- function(x, set) {
  if (is.character(x)) return(paste(x, collapse = "\n"))
  if (is.null(x)) return("{}")
  if (identical(x, list())) return("[]")
  payload_json(x, set)
}

is_bare_empty_list <- function(x) {
  is.list(x) && length(x) == 0 && all(names(attributes(x)) %in% "names")
}

structured <- function(x, set) {
  if (is.null(x)) return(list(present = FALSE))
  json <- if (is_bare_empty_list(x)) "{}" else payload_json(x, set)
  list(present = TRUE, json = json)
}

cases <- list()
add <- function(kind, id, expr) {
  x <- eval(parse(text = expr), envir = new.env())
  outputs <- lapply(option_sets, function(set) {
    tryCatch(
      if (kind == "ordinary") list(text = ordinary_text(x, set)) else structured(x, set),
      error = function(e) list(error = conditionMessage(e))
    )
  })
  cases[[length(cases) + 1L]] <<- list(id = id, kind = kind, expr = expr, value = rdesc(x), outputs = outputs)
}

ordinary <- c(
  character_scalar = '"done"',
  json_looking_string = '"{\\"a\\": 1}"',
  character_vector = 'c("a", "b", "c")',
  character_vector_with_na = 'c("a", NA, "c")',
  character_na = 'NA_character_',
  character_empty = 'character(0)',
  character_named = 'c(first = "x", second = "y")',
  character_multiline = 'c("one\\ntwo", "three")',
  jsonlite_json_object = 'structure("{\\"a\\":1}", class = "json")',
  own_json_text = 'as.character(jsonlite::toJSON(list(x = NA_real_), na = "null"))',
  null = 'NULL',
  empty_list = 'list()',
  empty_named_list = 'structure(list(), names = character())',
  empty_asis_list = 'I(list())',
  integer_scalar = '1L',
  double_scalar = '1.5',
  double_digits = 'pi',
  double_vector = 'c(1, 2.5, 3)',
  logical_scalar = 'TRUE',
  logical_na = 'NA',
  integer_na = 'NA_integer_',
  double_na = 'NA_real_',
  non_finite = 'c(NA_real_, NaN, Inf, -Inf)',
  named_list = 'list(ok = TRUE, n = 2L)',
  nested_list = 'list(a = 1, b = list(), c = list(d = "x"))',
  list_with_null = 'list(a = NULL, b = 1)',
  unnamed_list = 'list(1, "a", TRUE)',
  list_of_strings = 'list("a", "b")',
  data_frame = 'data.frame(id = 1:2, missing = c(NA, 1.5))',
  factor = 'factor(c("b", "a", "b"))',
  date = 'as.Date("2024-01-02")',
  matrix = 'matrix(1:4, 2)',
  asis_scalar = 'I(1L)',
  unboxed_scalar = 'jsonlite::unbox(2L)',
  named_vector = 'c(a = 1, b = 2)',
  nested_json_object = 'list(x = structure("{\\"a\\":1}", class = "json"))',
  raw_bytes = 'as.raw(c(1, 2, 255))',
  complex_scalar = '1+2i',
  double_max = '.Machine$double.xmax',
  numpy_vector = 'c(1.5, 2, NaN)',
  numpy_matrix = 'matrix(1:6, 2)',
  numpy_scalar = '5L',
  pandas_frame = 'data.frame(id = 1:2, name = c("a", NA))'
)

structured_cases <- c(
  object = 'list(ok = TRUE)',
  character_vector = 'c("a", "b")',
  string_scalar = '"done"',
  json_looking_string = '"{\\"a\\": 1}"',
  jsonlite_json_object = 'structure("{\\"a\\":1}", class = "json")',
  nested_json_object = 'list(payload = structure("[1,2]", class = "json"))',
  empty_list = 'list()',
  empty_named_list = 'structure(list(), names = character())',
  asis_empty_list = 'I(list())',
  nested_empty_list = 'list(items = list())',
  nested_asis_empty_list = 'list(items = I(list()))',
  list_of_empty_list = 'list(list())',
  logical_na = 'NA',
  character_na = 'NA_character_',
  integer_na = 'NA_integer_',
  double_na = 'NA_real_',
  complex_na = 'NA_complex_',
  null = 'NULL',
  named_null_field = 'list(a = NULL, b = 1L)',
  na_fields = 'list(a = NA, b = NA_integer_, c = NA_real_, d = NaN, e = Inf, f = NA_character_)',
  non_finite = 'c(NA_real_, NaN, Inf, -Inf)',
  data_frame_missing = 'data.frame(id = 1:2, missing = c(NA_real_, 2))',
  seed_example = 'list(count = 1L, values = c(NA_real_, NaN, Inf, -Inf), rows = data.frame(id = 1L, missing = NA_real_))',
  integer_scalar = '1L',
  double_digits = 'list(x = 3.14159265, y = 1e10, z = 0.000012345)',
  asis_scalar = 'I(1L)',
  asis_string = 'I("done")',
  unboxed_scalar = 'list(x = jsonlite::unbox(1L), y = 2L)',
  unboxed_data_frame = 'jsonlite::unbox(data.frame(x = 1L, y = "a"))',
  named_vector = 'c(a = 1, b = 2)',
  factor = 'list(f = factor(c("b", "a")))',
  date = 'list(d = as.Date("2024-01-02"))',
  matrix = 'matrix(1:4, 2)',
  data_frame = 'data.frame(x = 1:2, y = c("a", NA))',
  unnamed_list = 'list(1L, "a")',
  nested_object = 'list(a = list(b = list(c = 1L)))',
  logical_vector = 'c(TRUE, NA, FALSE)',
  numpy_vector = 'list(x = c(1.5, 2, NaN))',
  pandas_frame = 'data.frame(id = 1:2, name = c("a", NA))',
  pandas_series = 'list(s = c(1.5, NaN))'
)

for (id in names(ordinary)) add("ordinary", id, ordinary[[id]])
for (id in names(structured_cases)) add("structured", id, structured_cases[[id]])

out <- list(
  r = R.version.string,
  jsonlite = as.character(packageVersion("jsonlite")),
  option_sets = lapply(option_sets, function(s) if (length(s)) s else structure(list(), names = character())),
  cases = cases
)
writeLines(enc2utf8(as.character(toJSON(out, auto_unbox = TRUE, null = "null", na = "null", digits = NA,
                                        pretty = TRUE))), out_file, useBytes = TRUE)
