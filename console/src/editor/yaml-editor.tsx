import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { syntaxHighlighting } from '@codemirror/language';
import type { Diagnostic } from '@codemirror/lint';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useCallback, useRef } from 'preact/hooks';
import type { TextDiagnostic } from '../api/types.js';
import { offsetOf } from '../search/scoped-query.js';
import { editorHighlightStyle, editorTheme } from './editor-theme.js';
import { useEditorView } from './use-editor-view.js';

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
  const problems = props.diagnostics;

  useEditorView(host, {
    value: props.value,
    onChange: props.onChange,
    diagnostics: useCallback(
      (text: string): Diagnostic[] =>
        problems.map((d) => {
          const from = offsetOf(text, d.line, d.column);
          const to = Math.max(from, offsetOf(text, d.end_line, d.end_column));
          return { from, to: to === from ? Math.min(from + 1, text.length) : to, severity: d.severity === 'warning' ? 'warning' : 'error', message: d.message };
        }),
      [problems],
    ),
    extensions: () => [
      lineNumbers(),
      history(),
      yaml(),
      syntaxHighlighting(editorHighlightStyle),
      keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
      EditorView.contentAttributes.of({ 'aria-label': props.label, spellcheck: 'false' }),
      editorTheme,
      EditorView.theme({ '.cm-gutters': { display: 'flex', background: '#f4f6f8', color: '#4a5663' }, '.cm-content': { minHeight: '16rem' } }),
    ],
  });

  return <div class="yaml-editor" ref={host} />;
}
