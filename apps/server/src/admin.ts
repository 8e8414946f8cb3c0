/** `npm run admin -- …`: the vendor's command line (admin-cli.ts) as a process. */
import { runAdmin } from './admin-cli';

process.exitCode = await runAdmin(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
