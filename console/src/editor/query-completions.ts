import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';
import { firstPipe } from '../search/scoped-query.js';
import { functions, keywords, pipelineCommands, systemColumns } from './query-vocabulary.js';

/** What completion offers beyond the language's own words: the index's fields and the tenant's indexes. */
export interface CompletionVocabulary {
  fields(): readonly string[];
  indexes(): readonly string[];
}

/** Backticks for column names that are not bare words (`user name`). */
export function columnText(name: string): string {
  return /^[@%A-Za-z_*][^\s:()"'<>=|,~{}!#`]*$/.test(name) ? name : `\`${name.replace(/[`\\]/g, (c) => `\\${c}`)}\``;
}

/**
 * Completes, at the cursor: a command right after `|`; an index name after `@index=`; otherwise
 * field names (from the field catalog), system columns, keywords, and in a pipeline functions.
 */
export function queryCompletions(vocabulary: CompletionVocabulary): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[\w@%.*\[\]-]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const before = context.state.sliceDoc(0, word.from);
    if (/@index\s*=\s*$/.test(before)) {
      return { from: word.from, options: vocabulary.indexes().map((name) => ({ label: name, type: 'constant', apply: columnText(name) })) };
    }
    const lastPipe = lastTopLevelPipe(before);
    if (lastPipe !== -1 && before.slice(lastPipe + 1).trim() === '') {
      return { from: word.from, options: pipelineCommands.map((c) => ({ label: c.name, type: 'keyword', detail: c.detail })), validFor: /^\w*$/ };
    }
    const options: Completion[] = [
      ...vocabulary.fields().map((f) => ({ label: f, type: 'property', apply: columnText(f), boost: 1 })),
      ...systemColumns.map((c) => ({ label: c, type: 'variable' })),
      ...keywords.map((k) => ({ label: k, type: 'keyword', boost: -1 })),
      ...(lastPipe !== -1 ? functions.map((f) => ({ label: f.name, type: 'function', detail: f.detail, apply: `${f.name}(` })) : []),
    ];
    return { from: word.from, options, validFor: /^[\w@%.\[\]-]*$/ };
  };
}

/** The last top-level `|` of the text (outside quotes, backticks and comments), -1 when none. */
function lastTopLevelPipe(text: string): number {
  let at = -1;
  for (let offset = 0; ;) {
    const next = firstPipe(text.slice(offset));
    if (next === -1) return at;
    at = offset + next;
    offset = at + 1;
  }
}
