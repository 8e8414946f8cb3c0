// MJML 5 ships no type declarations; this is the part of its API the renderer uses.
declare module 'mjml' {
  type MjmlError = { line: number; message: string; tagName: string; formattedMessage: string };
  type MjmlOptions = {
    validationLevel?: 'strict' | 'soft' | 'skip';
    minify?: boolean;
    beautify?: boolean;
    keepComments?: boolean;
  };
  const mjml2html: (mjml: string, options?: MjmlOptions) => Promise<{ html: string; errors: MjmlError[] }>;
  export default mjml2html;
}
