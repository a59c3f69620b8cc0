import { toIsoTimestamp } from './timestamp';

/** How a column's driver value becomes the field's: bigint (a string from pg, a number from PGlite), timestamps as ISO 8601. */
const CONVERT = {
  number: (value: unknown) => Number(value),
  time: (value: unknown) => toIsoTimestamp(value),
  'time?': (value: unknown) => (value === null ? null : toIsoTimestamp(value)),
} as const;

export type ColumnKind = keyof typeof CONVERT;

export interface Columns<T> {
  /** The column list for a SELECT or RETURNING, in the order given. */
  readonly list: string;
  /** The row's columns as the record's camelCase fields, converted; other columns of the row are left out. */
  read(row: object): T;
}

const camelCase = (column: string) => column.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * One definition of a table's record: the columns a query selects and how a row maps onto the
 * record, each snake_case column (or its `AS` alias) to its camelCase field. `kinds` names the columns whose value
 * needs converting; the rest are as the driver gives them. `T` is the caller's word for the row's
 * shape: the columns named must be its fields.
 */
export function columns<T>(list: readonly string[], kinds: Readonly<Record<string, ColumnKind>> = {}): Columns<T> {
  const fields = list.map((entry) => {
    // `live_build AS live`: the row's key is the alias.
    const column = entry.split(' AS ')[1] ?? entry;
    const kind = kinds[column];
    return { column, field: camelCase(column), convert: kind === undefined ? undefined : CONVERT[kind] };
  });
  return {
    list: list.join(', '),
    read(row) {
      const values = row as Record<string, unknown>;
      const record: Record<string, unknown> = {};
      for (const { column, field, convert } of fields)
        record[field] = convert ? convert(values[column]) : values[column];
      return record as unknown as T;
    },
  };
}
