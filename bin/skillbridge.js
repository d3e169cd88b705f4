#!/usr/bin/env node
// The skillbridge command. Runs the TypeScript sources directly through tsx, so
// the CLI, the tests and the app all execute the same code.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../hosts/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
