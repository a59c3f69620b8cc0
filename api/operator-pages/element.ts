// What the API's operator pages (the field report, the team console) build their DOM with: no
// innerHTML anywhere, so nothing the API or the user sends can become markup.

/** A new element with its properties and children. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  children: ReadonlyArray<Node | string> = [],
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}
