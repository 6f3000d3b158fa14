import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, completionStatus } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { useEffect, useRef } from 'preact/hooks';
import type { QueryProblem } from '../search/search-run.js';
import { editorRoot } from './editor-root.js';
import { editorHighlightStyle, editorTheme } from './editor-theme.js';
import { queryCompletions, type CompletionVocabulary } from './query-completions.js';
import { queryLanguage } from './query-language.js';

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
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const run = (): boolean => {
      latest.current.onRun();
      return true;
    };
    const root = editorRoot(host.current!);
    const editor = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: props.value,
        extensions: [
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
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
          editorTheme,
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  // The text changed from outside (history, a value clicked in the results, the URL): replace it.
  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === props.value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.value }, selection: { anchor: props.value.length } });
  }, [props.value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const length = editor.state.doc.length;
    const diagnostics: Diagnostic[] = props.problems.map((p) => ({
      from: Math.min(p.from, length),
      to: Math.min(Math.max(p.to, p.from), length),
      severity: 'error',
      message: p.message,
    }));
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [props.problems]);

  return <div class="query-editor" ref={host} />;
}
