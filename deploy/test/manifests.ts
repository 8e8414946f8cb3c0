import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { ROOT, WORK } from './podman';

export const KUBERNETES_DIR = path.join(ROOT, 'deploy/kubernetes');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- YAML as written; validateManifests checks it against the API's types
export type Manifest = { file: string; apiVersion: string; kind: string; metadata: { name: string }; [k: string]: any };

/** Every Kubernetes resource in deploy/kubernetes (kustomization.yaml is kustomize's, not the API's). */
export function readManifests(dir = KUBERNETES_DIR): Manifest[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((doc) => {
        if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
        return { file, ...(doc.toJS() as Omit<Manifest, 'file'>) } as Manifest;
      }),
    );
}

/** kubernetes-models' module for an apiVersion: `v1` is the core group. */
const modelModule = (apiVersion: string) => `kubernetes-models/${apiVersion}`;

/**
 * Validates each resource against the Kubernetes API's schemas, as kubernetes-models generates them:
 * its JSON-schema validation (types, required fields, formats), and, since that lets unknown fields
 * through, TypeScript's excess property check against the same models' types, which names any
 * field the API does not know (a typo such as `readinesProbe`). Answers one message per problem.
 */
export async function validateManifests(
  manifests: Omit<Manifest, 'file'>[],
  label = (i: number) => `resource ${i}`,
): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, m] of manifests.entries()) {
    const { file: _file, ...resource } = m as Manifest;
    let Model: (new (data: unknown) => { validate(): void }) | undefined;
    try {
      const models = (await import(modelModule(m.apiVersion))) as Record<string, typeof Model>;
      Model = models[m.kind];
    } catch {
      // unknown group or version: reported below
    }
    if (!Model) {
      problems.push(`${label(i)}: no ${m.kind} in the Kubernetes API ${m.apiVersion}`);
      continue;
    }
    try {
      new Model(resource).validate();
    } catch (err) {
      problems.push(`${label(i)} ${m.kind}/${m.metadata?.name}: ${(err as Error).message}`);
    }
  }
  if (problems.length) return problems;

  const dir = path.join(WORK, 'manifest-types');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'manifests.ts');
  const lines = manifests.map((m, i) => {
    const { file: _file, ...resource } = m as Manifest;
    return `// ${label(i)}\nimport type { I${m.kind} as T${i} } from '${modelModule(m.apiVersion)}';\nexport const r${i}: T${i} = ${JSON.stringify(resource, null, 1)};\n`;
  });
  writeFileSync(file, lines.join('\n'));
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  });
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    let where = '';
    if (d.file && d.start !== undefined) {
      const text = d.file.text.slice(0, d.start);
      where = text.slice(text.lastIndexOf('\n// ') + 4).split('\n')[0] ?? '';
    }
    problems.push(`${where}: ${message}`);
  }
  return problems;
}
