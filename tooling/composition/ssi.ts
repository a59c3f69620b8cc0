/**
 * The subset of nginx's SSI (ngx_http_ssi_module) the page template and fragments use, for the Node
 * server of `npm run up`, so one template is composed the same way by nginx in the images and by
 * Node locally: `echo var` (entity-encoded), `if expr="$var"` / `endif`, `block` / `endblock` and
 * `include virtual` with `stub`. Anything else is an error, not silently ignored. As nginx does,
 * every include starts as the template is read and they run at once; the output keeps their order.
 */
export interface SsiContext {
  readonly variables: Readonly<Record<string, string>>;
  /** The body of a virtual include, or undefined when it failed (the stub block is printed). */
  include(uri: string): Promise<string | undefined>;
}

const DIRECTIVE = /<!--#\s*([a-z]+)((?:\s+[a-z]+="[^"]*")*)\s*-->/g;

const escapeEntities = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

function parameters(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const match of text.matchAll(/([a-z]+)="([^"]*)"/g)) result[match[1] as string] = match[2] as string;
  return result;
}

/** `$name` and `${name}` replaced by the variable's value (unknown: empty), as nginx does. */
export function substitute(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\{([a-z_][a-z0-9_]*)\}|\$([a-z_][a-z0-9_]*)/gi,
    (_match, braced: string | undefined, bare: string | undefined) => variables[braced ?? bare ?? ''] ?? '',
  );
}

export async function renderSsi(template: string, context: SsiContext): Promise<string> {
  const blocks = new Map<string, string>();
  const output: Array<string | Promise<string>> = [];
  let last = 0;
  /** Open `if`s: whether each one's content is printed; `block` collects into `capture`. */
  const conditions: boolean[] = [];
  let capture: { name: string; text: string } | undefined;
  const printing = () => conditions.every(Boolean);
  const emit = (text: string) => {
    if (capture) capture.text += text;
    else if (printing()) output.push(text);
  };

  for (const match of template.matchAll(DIRECTIVE)) {
    emit(template.slice(last, match.index));
    last = (match.index ?? 0) + match[0].length;
    const [, command, rawParameters = ''] = match;
    const params = parameters(rawParameters);
    switch (command) {
      case 'echo':
        emit(escapeEntities(context.variables[params.var ?? ''] ?? params.default ?? ''));
        break;
      case 'if': {
        const expression = (params.expr ?? '').trim();
        if (!/^\$\{?[a-z_][a-z0-9_]*\}?$/i.test(expression))
          throw new Error(`SSI: only if expr="$variable" is supported (got "${expression}")`);
        conditions.push(substitute(expression, context.variables) !== '');
        break;
      }
      case 'endif':
        if (conditions.pop() === undefined) throw new Error('SSI: endif without if');
        break;
      case 'block':
        capture = { name: params.name ?? '', text: '' };
        break;
      case 'endblock':
        if (!capture) throw new Error('SSI: endblock without block');
        blocks.set(capture.name, capture.text);
        capture = undefined;
        break;
      case 'include': {
        if (!params.virtual) throw new Error('SSI: only include virtual="..." is supported');
        if (capture || !printing()) break;
        const stub = params.stub === undefined ? undefined : (blocks.get(params.stub) ?? '');
        output.push(
          context
            .include(substitute(params.virtual, context.variables))
            .then(
              (body) =>
                body ??
                (stub === undefined ? '[an error occurred while processing the directive]' : renderSsi(stub, context)),
            ),
        );
        break;
      }
      default:
        throw new Error(`SSI: unsupported directive "${command}"`);
    }
  }
  if (conditions.length > 0 || capture) throw new Error('SSI: unclosed if or block');
  emit(template.slice(last));
  return (await Promise.all(output)).join('');
}
