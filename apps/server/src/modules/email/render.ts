import type { MailMessage } from '../../providers/mail/mailer';
import type { RenderedMail, TemplatedMail, TemplateName } from './email-job';
import { layoutMjml, type BrandLook } from './layout';
import { TEMPLATES, type TemplateDef } from './templates';

/** The part of MJML's API used here (MJML 5 ships no type declarations). */
type Mjml2Html = (
  mjml: string,
  options?: { validationLevel?: 'strict' | 'soft' | 'skip' },
) => Promise<{ html: string; errors: Array<{ formattedMessage: string }> }>;
// A specifier in a variable: the type checkers of other workspaces that import this file need no
// declaration for the untyped package.
const MJML = 'mjml';

/**
 * MJML and its CSS and HTML tools take about half a second to load: loaded on the first e-mail,
 * not at start (the server starts from a bundle that keeps it external).
 */
let mjml: Promise<Mjml2Html> | undefined;
function loadMjml(): Promise<Mjml2Html> {
  mjml ??= (import(MJML) as Promise<{ default: Mjml2Html | { default: Mjml2Html } }>).then((m) => {
    // A CommonJS module built by Babel: the function is `default`, or `default.default` under ESM interop.
    const d = m.default as Mjml2Html | { default: Mjml2Html };
    return typeof d === 'function' ? d : d.default;
  });
  return mjml;
}

const compiled = new Map<string, Promise<string>>();

/** A template's HTML with its tokens still in: compiled once per template and brand, then reused. */
export function compileTemplate(name: TemplateName, look: BrandLook): Promise<string> {
  const key = `${name}\n${JSON.stringify(look)}`;
  let html = compiled.get(key);
  if (!html) {
    const def = TEMPLATES[name] as TemplateDef<TemplateName>;
    html = loadMjml().then(async (mjml2html) => {
      const out = await mjml2html(layoutMjml(look, def.blocks, def.footer ?? 'You receive this e-mail about your account.'), {
        validationLevel: 'strict',
      });
      return out.html;
    });
    // A failed compile is not cached: the outbox retries the e-mail later.
    html.catch(() => compiled.delete(key));
    compiled.set(key, html);
  }
  return html;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Fills `{{name}}` with the escaped value and `{{{name}}}` with trusted HTML; a missing value is a bug. */
export function fill(html: string, vars: Record<string, string>, raw: Record<string, string> = {}): string {
  return html.replace(/\{\{\{(\w+)\}\}\}|\{\{(\w+)\}\}/g, (_m, rawName: string | undefined, name: string | undefined) => {
    if (rawName !== undefined) {
      const v = raw[rawName];
      if (v === undefined) throw new Error(`e-mail template token {{{${rawName}}}} has no value`);
      return v;
    }
    const v = vars[name!];
    if (v === undefined) throw new Error(`e-mail template token {{${name}}} has no value`);
    return escapeHtml(v).replace(/\n/g, '<br>');
  });
}

/** One templated e-mail as a message: subject, plain-text part and branded HTML. */
export async function renderTemplate(job: TemplatedMail, look: BrandLook): Promise<MailMessage> {
  const def = TEMPLATES[job.template] as TemplateDef<TemplateName>;
  const data = job.data as never;
  const subject = def.subject(data, look);
  const vars = { ...def.vars(data, look), subject, brand: look.name, preview: def.preview(data, look) };
  const html = fill(await compileTemplate(job.template, look), vars, def.raw?.(data, look) ?? {});
  const text = `${def.text(data, look)}\n\n--\n${look.name}\n${look.publicUrl}\n`;
  return { to: job.to, subject, text, html, ...(job.logHint ? { logHint: job.logHint } : {}) };
}

/** The `email` job as a message: rows queued before templates carry the rendered message itself. */
export function renderEmailJob(job: TemplatedMail | RenderedMail, look: BrandLook): Promise<MailMessage> {
  return 'template' in job ? renderTemplate(job, look) : Promise.resolve(job);
}
