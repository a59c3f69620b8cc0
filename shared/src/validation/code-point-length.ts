/**
 * The number of Unicode code points in `text`. Limits are counted this way, not in UTF-16 units,
 * so an emoji or a supplementary-plane letter counts as one character, as a person would count it.
 */
export function codePointLength(text: string): number {
  let count = 0;
  // The string iterator steps by code point.
  for (const _ of text) count += 1;
  return count;
}
