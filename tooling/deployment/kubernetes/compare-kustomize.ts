/**
 * `node --import tsx tooling/deployment/kubernetes/compare-kustomize.ts <overlay> < kustomize-output.yaml`:
 * fails unless kustomize's output (standard input) holds exactly the objects of
 * deploy/kubernetes/rendered/<overlay>.yaml, field for field (the order of objects aside).
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const overlay = process.argv[2] ?? '';
const objects = (text: string) =>
  new Map(
    parseAllDocuments(text)
      .map((document) => document.toJS() as { kind: string; metadata: { name: string } } | null)
      .filter((object) => object !== null)
      .map((object) => [`${object.kind}/${object.metadata.name}`, object]),
  );
const rendered = objects(
  readFileSync(join(__dirname, '..', '..', '..', 'deploy', 'kubernetes', 'rendered', `${overlay}.yaml`), 'utf8'),
);
const built = objects(readFileSync(0, 'utf8'));
const problems: string[] = [];
for (const key of new Set([...rendered.keys(), ...built.keys()])) {
  if (!built.has(key)) problems.push(`${key}: rendered, but kustomize does not build it`);
  else if (!rendered.has(key)) problems.push(`${key}: built by kustomize, missing from the rendered file`);
  else if (!isDeepStrictEqual(built.get(key), rendered.get(key)))
    problems.push(
      `${key}: differs:\n  kustomize: ${JSON.stringify(built.get(key))}\n  rendered:  ${JSON.stringify(rendered.get(key))}`,
    );
}
if (problems.length > 0) {
  console.error(`deploy/kubernetes/overlays/${overlay} and rendered/${overlay}.yaml disagree:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`overlays/${overlay}: kustomize builds the ${built.size} objects of rendered/${overlay}.yaml`);
