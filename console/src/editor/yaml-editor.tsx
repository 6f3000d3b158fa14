import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { syntaxHighlighting } from '@codemirror/language';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'preact/hooks';
import type { TextDiagnostic } from '../api/types.js';
import { offsetOf } from '../search/scoped-query.js';
import { editorRoot } from './editor-root.js';
import { editorHighlightStyle, editorTheme } from './editor-theme.js';

export interface YamlEditorProps {
  readonly value: string;
  readonly onChange: (text: string) => void;
  readonly diagnostics: readonly TextDiagnostic[];
  readonly label: string;
}

/**
 * A rule file in CodeMirror with YAML highlighting and line numbers; the server's problems show
 * as squiggles at their line and column. Tab indents; Escape then Tab leaves the editor.
 */
export function YamlEditor(props: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  useEffect(() => {
    const root = editorRoot(host.current!);
    const editor = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          lineNumbers(),
          history(),
          yaml(),
          syntaxHighlighting(editorHighlightStyle),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.contentAttributes.of({ 'aria-label': props.label, spellcheck: 'false' }),
          EditorView.updateListener.of((u) => u.docChanged && onChange.current(u.state.doc.toString())),
          editorTheme,
          EditorView.theme({ '.cm-gutters': { display: 'flex', background: '#f4f6f8', color: '#4a5663' }, '.cm-content': { minHeight: '16rem' } }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === props.value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.value } });
  }, [props.value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const text = editor.state.doc.toString();
    const diagnostics: Diagnostic[] = props.diagnostics.map((d) => {
      const from = offsetOf(text, d.line, d.column);
      const to = Math.max(from, offsetOf(text, d.end_line, d.end_column));
      return { from, to: to === from ? Math.min(from + 1, text.length) : to, severity: d.severity === 'warning' ? 'warning' : 'error', message: d.message };
    });
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [props.diagnostics]);

  return <div class="yaml-editor" ref={host} />;
}
