// Where the CLI writes: results to stdout, problems to stderr, one line each.
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const stdio: Output = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
};

export function json(o: Output, value: unknown): void {
  o.out(JSON.stringify(value, null, 2));
}
