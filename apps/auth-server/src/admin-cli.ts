import { runAdminCli } from './admin-cli/run-admin-cli.js';

process.exitCode = await runAdminCli(process.argv.slice(2), { fetch, env: process.env, stdout: process.stdout, stderr: process.stderr });
