/**
 * Where an editor mounts: an open shadow root on its host element. CodeMirror's styles then go
 * into a constructed style sheet of that root (adoptedStyleSheets), which the console's strict
 * Content-Security-Policy allows; in the document itself they would be an inline <style>, which
 * `style-src 'self'` forbids.
 */
export function editorRoot(host: HTMLElement): ShadowRoot {
  return host.shadowRoot ?? host.attachShadow({ mode: 'open' });
}
