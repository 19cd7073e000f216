"""Downloads of the taxonomy browser's tables (`/download/...csv` and `.json`): every row of
a table, in the order and filter its page's URL gives, streamed.

Each download runs the public schema's own operations a chunk of rows at a time, walking
the list's cursors, each chunk under the same limits as a request to /graphql (its cost
rule, its time limit and statement timeout), the whole under `download_timeout_seconds`.
`tables` says what each table is (its operation, its URL's parameters, its columns),
`writers` writes rows as CSV or JSON lines, `routes` serves them."""
