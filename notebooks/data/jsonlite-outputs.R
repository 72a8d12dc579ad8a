# What R 4.2.2 with jsonlite 1.8.4 writes for the frame of notebooks/pandas-to-tool-results.ipynb.
# Run from the repository root: Rscript notebooks/data/jsonlite-outputs.R > notebooks/data/jsonlite-outputs.json
library(jsonlite)
penguins <- data.frame(
  island = factor(c("Biscoe", "Dream", NA), levels = c("Biscoe", "Dream", "Torgersen")),
  mass = c(4250.123456, NaN, 1 / 3),
  flipper = c(210L, NA, 190L),
  seen = as.POSIXct(c("2024-03-10 01:30", "2024-03-10 03:30", NA), tz = "America/New_York"),
  day = as.Date(c("2024-03-10", NA, "2024-03-12")),
  row.names = c("a1", "b2", "c3")
)
summary <- list(rows = 3L, islands = "Biscoe", missing = NULL)
outputs <- list(
  rows = toJSON(penguins, auto_unbox = TRUE, null = "null"),
  na_null = toJSON(penguins, auto_unbox = TRUE, null = "null", na = "null"),
  na_string = toJSON(penguins, auto_unbox = TRUE, null = "null", na = "string"),
  columns = toJSON(penguins, dataframe = "columns", auto_unbox = TRUE, null = "null"),
  summary = toJSON(summary, auto_unbox = TRUE, null = "null"),
  summary_boxed = toJSON(summary, auto_unbox = FALSE, null = "null"),
  summary_null_list = toJSON(summary, auto_unbox = TRUE, null = "list")
)
cat(toJSON(list(
  made_by = paste(R.version.string, "with jsonlite", as.character(packageVersion("jsonlite"))),
  outputs = lapply(outputs, as.character)
), auto_unbox = TRUE, pretty = TRUE), "\n")
