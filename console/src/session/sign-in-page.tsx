import { messageOf } from '../api/api-error.js';
import { useState } from 'preact/hooks';

/** Asks for an API key once; the key stays in this tab unless "remember on this device" is ticked. */
export function SignInPage(props: { onSignIn: (key: string, remember: boolean) => Promise<void>; notice: string | null }) {
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (key.trim() === '') return setError('paste an API key');
    setBusy(true);
    setError(null);
    try {
      await props.onSignIn(key.trim(), remember);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <form class="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Vigil</h1>
        <p>
          Paste an API key. <code>vigil serve</code> printed one at its first start and saved it in <code>data/bootstrap-key</code>; <code>vigil keys create</code> makes more.
        </p>
        {props.notice && <p class="notice">{props.notice}</p>}
        <label class="field">
          <span>API key</span>
          <input
            type="password"
            name="api-key"
            autocomplete="off"
            spellcheck={false}
            value={key}
            onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'sign-in-error' : undefined}
            autoFocus
          />
        </label>
        <label class="check">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember((e.currentTarget as HTMLInputElement).checked)} />
          <span>Remember on this device</span>
        </label>
        <p class="hint">Without it the key is kept for this tab only and forgotten when the tab closes.</p>
        {error && (
          <p class="error" id="sign-in-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
