import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, completionStatus } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import type { Diagnostic } from '@codemirror/lint';
import { Prec } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { useCallback, useRef } from 'preact/hooks';
import type { QueryProblem } from '../search/search-run.js';
import { editorHighlightStyle, editorTheme } from './editor-theme.js';
import { queryCompletions, type CompletionVocabulary } from './query-completions.js';
import { queryLanguage } from './query-language.js';
import { useEditorView } from './use-editor-view.js';

export interface QueryEditorProps {
  readonly value: string;
  readonly onChange: (text: string) => void;
  /** Enter (or Ctrl/Cmd+Enter) runs the search; Shift+Enter starts a new line. */
  readonly onRun: () => void;
  readonly problems: readonly QueryProblem[];
  readonly vocabulary: CompletionVocabulary;
}

/** The query box: CodeMirror with the language's highlighting, completion and the server's errors as squiggles. */
export function QueryEditor(props: QueryEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const problems = props.problems;

  useEditorView(host, {
    value: props.value,
    onChange: props.onChange,
    diagnostics: useCallback(
      (text: string): Diagnostic[] =>
        problems.map((p) => ({ from: Math.min(p.from, text.length), to: Math.min(Math.max(p.to, p.from), text.length), severity: 'error', message: p.message })),
      [problems],
    ),
    extensions: () => {
      const run = (): boolean => {
        latest.current.onRun();
        return true;
      };
      return [
        history(),
        closeBrackets(),
        bracketMatching(),
        queryLanguage,
        syntaxHighlighting(editorHighlightStyle),
        autocompletion({ override: [queryCompletions({ fields: () => latest.current.vocabulary.fields(), indexes: () => latest.current.vocabulary.indexes() })] }),
        placeholder('Search: a word, field: value, or a pipeline (| stats count() by user)'),
        Prec.highest(
          keymap.of([
            { key: 'Enter', run: (v) => (completionStatus(v.state) === 'active' ? false : run()) },
            { key: 'Mod-Enter', run },
            { key: 'Shift-Enter', run: (v) => (v.dispatch(v.state.replaceSelection('\n')), true) },
          ]),
        ),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': 'Query', 'aria-multiline': 'true', spellcheck: 'false', autocapitalize: 'off', autocorrect: 'off' }),
        editorTheme,
      ];
    },
  });

  return <div class="query-editor" ref={host} />;
}
