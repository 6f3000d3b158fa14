import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef, type MutableRef } from 'preact/hooks';
import { editorRoot } from './editor-root.js';

/**
 * A CodeMirror view in `host` (mounted in its shadow root, see editor-root.ts) showing `value`:
 * typing reports through `onChange`, a `value` changed from outside replaces the text, and
 * `diagnostics` (from the server's answer) show as squiggles under their characters.
 */
export function useEditorView(
  host: MutableRef<HTMLDivElement | null>,
  options: { value: string; onChange: (text: string) => void; extensions: () => Extension[]; diagnostics: (text: string) => Diagnostic[] },
): void {
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(options.onChange);
  onChange.current = options.onChange;

  useEffect(() => {
    const root = editorRoot(host.current!);
    const editor = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: options.value,
        extensions: [...options.extensions(), EditorView.updateListener.of((u) => u.docChanged && onChange.current(u.state.doc.toString()))],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === options.value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: options.value }, selection: { anchor: options.value.length } });
  }, [options.value]);

  const diagnostics = options.diagnostics;
  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, diagnostics(editor.state.doc.toString())));
  }, [diagnostics]);
}
