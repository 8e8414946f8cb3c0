const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sign-in e-mail, as text and HTML. */
export function signInEmail(p: { brand: string; url: string; minutes: number }) {
  const subject = `Your sign-in link for ${p.brand}`;
  const text = [
    `Hello,`,
    ``,
    `Use this link to sign in to ${p.brand}:`,
    ``,
    p.url,
    ``,
    `The link works once and expires in ${p.minutes} minutes.`,
    `If you did not ask for it, you can ignore this e-mail: nobody can sign in without it.`,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2328">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 12px">
<table role="presentation" width="100%" style="max-width:480px;background:#ffffff;border-radius:8px;padding:32px" cellpadding="0" cellspacing="0">
<tr><td style="font-size:18px;font-weight:600;padding-bottom:16px">${escape(p.brand)}</td></tr>
<tr><td style="font-size:15px;line-height:1.5;padding-bottom:24px">Click the button below to sign in. The link works once and expires in ${p.minutes} minutes.</td></tr>
<tr><td style="padding-bottom:24px"><a href="${escape(p.url)}" style="display:inline-block;background:#4c6ef5;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">Sign in to ${escape(p.brand)}</a></td></tr>
<tr><td style="font-size:13px;color:#57606a;line-height:1.5">If the button does not work, paste this address into your browser:<br><span style="word-break:break-all">${escape(p.url)}</span></td></tr>
<tr><td style="font-size:13px;color:#57606a;padding-top:24px">If you did not ask for this e-mail, you can ignore it.</td></tr>
</table></td></tr></table></body></html>`;
  return { subject, text, html };
}
