# batch.R MODE IN.json OUT.json
# Answers many questions in one R process, for the differential tests:
#   MODE "c":         each case is a list of {tag, value}; writes rdesc(do.call(c, args)) or the error.
#   MODE "identical": each case is {x, y}; writes identical(x, y).
#   MODE "tojson":    each case is {x, options: {auto_unbox, null, na}}; writes toJSON(x, ...) as a string.
args <- commandArgs(trailingOnly = TRUE)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "..", "data", "conformance", "rdesc.R"))
mode <- args[[1]]
cases <- fromJSON(args[[2]], simplifyVector = FALSE)

answer <- function(case) {
  tryCatch({
    if (mode == "c") {
      values <- lapply(case, function(a) from_rdesc(a$value))
      names(values) <- vapply(case, function(a) a$tag, "")
      if (all(names(values) == "")) names(values) <- NULL
      list(value = rdesc(do.call(c, values)))
    } else if (mode == "identical") {
      list(identical = identical(from_rdesc(case$x), from_rdesc(case$y)))
    } else if (mode == "tojson") {
      o <- case$options
      args <- list(from_rdesc(case$x), auto_unbox = isTRUE(o$auto_unbox), null = o$null)
      if (!is.null(o$na)) args$na <- o$na
      list(json = as.character(do.call(toJSON, args)))
    } else stop("unknown mode ", mode)
  }, error = function(e) list(error = conditionMessage(e)))
}

out <- lapply(cases, answer)
writeLines(as.character(toJSON(out, auto_unbox = TRUE, null = "null", na = "null", digits = NA)),
           args[[3]], useBytes = TRUE)
