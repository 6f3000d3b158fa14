/**
 * Lays generated SQL out one clause per line, indented by subquery depth, for `--explain` and
 * readable golden diffs. String literals are copied as they are; nothing else is reformatted.
 */
export function prettySql(sql: string): string {
  let out = '';
  const parens: boolean[] = []; // true for a parenthesis that opens a subquery
  let depth = 0;
  const newline = (): string => '\n' + '  '.repeat(depth);
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i] as string;
    if (ch === "'") {
      // copy the literal through its closing quote
      let j = i + 1;
      while (j < sql.length && sql[j] !== "'") j += sql[j] === '\\' ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j;
      continue;
    }
    if (ch === '(') {
      const subquery = sql.startsWith('(SELECT ', i);
      parens.push(subquery);
      if (subquery) {
        depth++;
        out += '(' + newline();
        continue;
      }
    } else if (ch === ')') {
      if (parens.pop() === true) {
        depth--;
        out += newline() + ')';
        continue;
      }
    }
    if (ch === ' ' && /^ (FROM|WHERE|ORDER BY|GROUP BY|LIMIT) /.test(sql.slice(i, i + 10))) {
      out += newline();
      continue;
    }
    out += ch;
  }
  return out;
}
