// C0 controls and DEL. A one-line text (a name, a tag, a key) may hold none of them: a bell or an
// escape sequence would reach terminals through `vigil … list`, a line break would break tables.
const anyControl = /[\u0000-\u001f\u007f]/;
// The same but tab, line feed and carriage return, which a multi-line text (a description) may hold.
const controlBesidesLineBreaks = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** True when a text holds a control character; `multiLine` texts may hold tabs and line breaks. */
export function hasControlCharacters(text: string, options: { readonly multiLine?: boolean } = {}): boolean {
  return (options.multiLine ? controlBesidesLineBreaks : anyControl).test(text);
}
