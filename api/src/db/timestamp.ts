/**
 * A timestamptz value from the driver as ISO 8601. Goes through `Number()` rather than `instanceof
 * Date`, because the driver's Date may come from another realm (its WASM glue loads separately in tests).
 */
export function toIsoTimestamp(value: unknown): string {
  const date = new Date(typeof value === 'string' ? value : Number(value));
  if (Number.isNaN(date.getTime())) throw new TypeError(`Not a timestamp: ${String(value)}`);
  return date.toISOString();
}
