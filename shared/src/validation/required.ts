/**
 * Whether a form value counts as "not given", with Angular `Validators.required` semantics:
 * `null`, `undefined`, `''` and empty arrays are missing; `0`, `false` and `{}` are values.
 *
 * Decision, unlike Angular (where `' '` passes): a whitespace-only string is missing too, because
 * someone who typed only spaces has not given a value.
 */
export function isEmptyInputValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}
