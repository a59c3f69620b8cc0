/** Rows as aligned columns, two spaces apart, each line without trailing spaces: the tools' tables. */
export function formatTable(rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}
