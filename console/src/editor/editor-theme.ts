import { HighlightStyle } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';

/** Colours with at least 4.5:1 contrast on the editor's white background. */
export const editorHighlightStyle = HighlightStyle.define([
  { tag: tags.comment, color: '#5c6770', fontStyle: 'italic' },
  { tag: tags.string, color: '#1f6f2b' },
  { tag: tags.special(tags.string), color: '#8a4b00' },
  { tag: tags.number, color: '#0b5cad' },
  { tag: tags.keyword, color: '#8f1d8f', fontWeight: '600' },
  { tag: tags.propertyName, color: '#9c2a00' },
  { tag: tags.special(tags.variableName), color: '#6f3bbf' },
  { tag: tags.function(tags.variableName), color: '#0b5cad' },
  { tag: tags.operator, color: '#333' },
]);

export const editorTheme = EditorView.theme({
  '&': { fontSize: '14px', border: '1px solid #8a96a3', borderRadius: '4px', background: '#fff' },
  '&.cm-focused': { outline: '2px solid #1a5fb4', outlineOffset: '1px' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', padding: '6px 0', minHeight: '1.4em' },
  '.cm-gutters': { display: 'none' },
  '.cm-placeholder': { color: '#5c6770' },
  '.cm-lintRange-error': { backgroundImage: 'none', textDecoration: 'underline wavy #c01c28', textDecorationSkipInk: 'none', textUnderlineOffset: '3px' },
});
