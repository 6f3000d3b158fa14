import { StreamLanguage, type StringStream } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { isCommand } from './query-vocabulary.js';

interface TokenState {
  /** After a top-level `|` and before the command's name. */
  expectCommand: boolean;
  inPipeline: boolean;
  braces: number;
}

// A bare term: no whitespace and none of : ( ) " ' < > = | , ~ { } ! # ` (docs/query-language.md, Terms).
const bareWord = /^[^\s:()"'<>=|,~{}!#`]+/;
const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?(?![^\s:()"'<>=|,~{}!#`])/;

function quoted(stream: StringStream, quote: string): void {
  let escaped = false;
  for (let c = stream.next(); c !== undefined && c !== null; c = stream.next()) {
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === quote) return;
  }
}

/**
 * Highlighting of the query language: comments, quoted terms, numbers, keywords, column names
 * (before `:`, `=` or a comparison), system columns, pipeline commands and functions. It colours
 * text only; the server's parser is the judge of what is valid.
 */
export const queryLanguage = StreamLanguage.define<TokenState>({
  name: 'vigil-query',
  startState: () => ({ expectCommand: false, inPipeline: false, braces: 0 }),
  copyState: (s) => ({ ...s }),
  token(stream, state) {
    if (stream.eatSpace()) return null;
    if (stream.peek() === '#') {
      stream.skipToEnd();
      return 'comment';
    }
    const c = stream.peek()!;
    if (c === '"' || c === "'") {
      stream.next();
      quoted(stream, c);
      return 'string';
    }
    if (c === '`') {
      stream.next();
      quoted(stream, '`');
      return 'propertyName';
    }
    if (c === '|' && state.braces === 0) {
      stream.next();
      state.inPipeline = true;
      state.expectCommand = true;
      return 'operator';
    }
    if (c === '{') state.braces++;
    if (c === '}') state.braces = Math.max(0, state.braces - 1);
    if (stream.match(/^(<=|>=|==|!=|[:=<>!~])/)) return 'operator';
    if (stream.match(/^[(){},]/)) return 'punctuation';
    if (stream.match(number)) return 'number';
    const word = stream.match(bareWord) as RegExpMatchArray | null;
    if (!word) {
      stream.next();
      return null;
    }
    const text = word[0];
    if (state.expectCommand) {
      state.expectCommand = false;
      return isCommand(text) ? 'keyword' : null;
    }
    if (/^(and|or|not)$/i.test(text) || (state.inPipeline && /^(by|as)$/i.test(text))) return 'keyword';
    if (text.startsWith('@') || text.startsWith('%')) return 'variableName.special';
    if (stream.match(/^\s*\(/, false)) return 'function';
    if (stream.match(/^\s*(:|=(?!=)|<|>)/, false)) return 'propertyName';
    return text.includes('*') ? 'string.special' : 'string';
  },
  tokenTable: {
    'variableName.special': tags.special(tags.variableName),
    'string.special': tags.special(tags.string),
    function: tags.function(tags.variableName),
  },
  languageData: { commentTokens: { line: '#' } },
});
