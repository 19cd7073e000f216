// Each table's downloads: every row of it, in the page's order and filter, as CSV or JSON,
// streamed by the server (api/download) from the same API the page reads. The link is the
// page's own URL (its sort and filter parameters) under /download, with the table's name
// where a page has several (the changes page's lists) and the format's extension.

/** Where a page's lists are (their cursors, positions and page sizes): no part of a
 * download, which has every row; nor which columns a table shows (`columns`): a download
 * has every column. */
const PAGING = ["after", "before", "from", "size", "columns"].concat(
  ...["nodes", "methods", "models", "treatments"].map((list) => [list, `${list}-before`, `${list}-from`]),
);

/** The download of ``page``'s table (a page URL: path and query) as ``extension``. */
export function downloadUrl(page: string, extension: "csv" | "json", table: string | null = null): string {
  const url = new URL(page, "http://page.invalid");
  for (const name of PAGING) url.searchParams.delete(name);
  const path = url.pathname.replace(/\/+$/, "") + (table ? `/${table}` : "");
  return `/download${path}.${extension}${url.search}`;
}

/** "Download CSV · Download JSON", under a table; ``label`` names the table for assistive
 * technology, where one page has several. */
export function Downloads({ page, table = null, label }: { page: string; table?: string | null; label: string }) {
  return (
    <p class="downloads" aria-label={`${label}: downloads`} role="group">
      <a href={downloadUrl(page, "csv", table)} download>
        Download CSV
      </a>
      {" · "}
      <a href={downloadUrl(page, "json", table)} download>
        Download JSON
      </a>
    </p>
  );
}
