// The skillbridge commands a page of the guide shows in its `sh` blocks, as a
// reader would type them: test/docs.test.ts checks the command line takes each,
// test/scale-recipe.test.ts runs a recipe's.

/** The words of a shell line up to its first pipe, redirection, `&&` or `;`, quotes removed. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else cur += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === ' ' || c === '\t') {
      if (has) words.push(cur);
      cur = '';
      has = false;
    } else if (c === '#' && !has) {
      break;
    } else if (c === '|' || c === ';' || c === '>' || c === '<' || c === '&') {
      // A redirection's descriptor ("2>") is not a word of the command.
      if (c === '>' && /^\d$/.test(cur)) has = false;
      break;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) words.push(cur);
  return words;
}

/** Every skillbridge command in the page's `sh` blocks: the words after the program's name. */
export function commandsOf(markdown: string): Array<{ line: string; args: string[] }> {
  const out: Array<{ line: string; args: string[] }> = [];
  let inSh = false;
  let pending = '';
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```')) {
      inSh = !inSh && /^```(sh|bash|shell)\s*$/.test(line);
      pending = '';
      continue;
    }
    if (!inSh) continue;
    // A synopsis's optional part ("[--port 4317]") is checked as if given.
    const joined = (pending + line).replace(/\[(--[^\]]*)\]/g, '$1');
    if (joined.endsWith('\\')) {
      pending = joined.slice(0, -1) + ' ';
      continue;
    }
    pending = '';
    // The command may follow a loop's `do`, an environment assignment or `&&`.
    for (const part of joined.split(/&&|;|\bdo\b/)) {
      const words = shellWords(part.trim()).filter((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
      const at = words.findIndex((w) => w === 'skillbridge' || w === 'bin/skillbridge.js' || w.endsWith('/bin/skillbridge.js'));
      if (at < 0 || (at > 0 && !['npx', 'node'].includes(words[at - 1]!))) continue;
      out.push({ line: joined, args: words.slice(at + 1) });
    }
  }
  return out;
}
