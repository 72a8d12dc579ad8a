# typed_cases.R IN.json OUT.json
# The R oracle for typed tools: builds each value from a plain description (not from mcplite's R
# values) and writes it with jsonlite, in one R process for many cases.
# A case is {"value": NODE, "options": {"auto_unbox": bool, "null": "null"|"list", "na": absent|"null"|"string"}},
# with optional "args": more toJSON arguments by jsonlite's names (POSIXt, UTC, digits: {"NA": true} or {"I": n}, ...).
# NODE is one of
#   {"frame": [COLUMN, ...]}          data.frame(..., check.names = FALSE): names kept as given
#   {"record": [{"name", "node"}]}    a named list
#   {"unbox": COLUMN}                 unbox(x) of a length-1 vector
#   {"I": COLUMN}                     I(x)
#   {"null": true}                    NULL
# COLUMN is {"name", "type", "values", "levels", "tz"}; type is logical, integer, double, character,
# factor (with levels), Date (values: days since 1970-01-01) or POSIXct (values: seconds, in tz).
# Values: null is NA; doubles are strings ("%.17g"-exact, or "NA", "NaN", "Inf", "-Inf").
# Writes [{"json": text} or {"error": message}, ...] in the order of the cases.
suppressMessages(library(jsonlite))
args <- commandArgs(trailingOnly = TRUE)
cases <- fromJSON(args[[1]], simplifyVector = FALSE)

na_filled <- function(values, na) vapply(values, function(v) if (is.null(v)) na else v, na)

doubles <- function(values) {
  text <- na_filled(values, "NA")
  out <- suppressWarnings(as.double(text))
  out[text == "NA"] <- NA_real_
  out[text == "NaN"] <- NaN
  out[text == "Inf"] <- Inf
  out[text == "-Inf"] <- -Inf
  out
}

column <- function(col) {
  v <- col$values
  switch(col$type,
    logical = as.logical(na_filled(v, NA)),
    integer = as.integer(na_filled(v, NA_integer_)),
    double = doubles(v),
    character = as.character(na_filled(v, NA_character_)),
    factor = factor(as.character(na_filled(v, NA_character_)), levels = unlist(col$levels)),
    Date = as.Date(doubles(v), origin = "1970-01-01"),
    POSIXct = as.POSIXct(doubles(v), origin = "1970-01-01", tz = col$tz),
    stop("unknown column type ", col$type)
  )
}

build <- function(node) {
  if (!is.null(node$frame)) {
    columns <- lapply(node$frame, column)
    names(columns) <- vapply(node$frame, function(col) col$name, "")
    return(do.call(data.frame, c(columns, list(check.names = FALSE, stringsAsFactors = FALSE))))
  }
  if (!is.null(node$record)) {
    fields <- lapply(node$record, function(field) build(field$node))
    names(fields) <- vapply(node$record, function(field) field$name, "")
    # a NULL field stays in the list (fields[name] <- list(NULL) semantics)
    return(fields)
  }
  if (!is.null(node$unbox)) return(unbox(column(node$unbox)))
  if (!is.null(node$I)) return(I(column(node$I)))
  if (isTRUE(node$null)) return(NULL)
  stop("unknown node")
}

answer <- function(case) {
  tryCatch({
    o <- case$options
    call <- list(build(case$value), auto_unbox = isTRUE(o$auto_unbox), null = o$null)
    if (!is.null(o$na)) call$na <- o$na
    # "args": more toJSON arguments; digits {"NA": true} is NA, {"I": n} is I(n); digits.secs is an option
    for (name in setdiff(names(case$args), "digits.secs")) {
      v <- case$args[[name]]
      call[[name]] <- if (is.list(v) && isTRUE(v$`NA`)) NA else if (is.list(v)) I(v$I) else v
    }
    old <- options(digits.secs = case$args$digits.secs)
    on.exit(options(old))
    list(json = as.character(do.call(toJSON, call)))
  }, error = function(e) list(error = conditionMessage(e)))
}

out <- lapply(cases, answer)
writeLines(as.character(toJSON(out, auto_unbox = TRUE)), args[[2]], useBytes = TRUE)
