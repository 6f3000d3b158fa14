import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, messageOf } from '../api/api-error.js';
import type { Me } from '../api/types.js';
import { VigilClient } from '../api/vigil-client.js';
import { SearchPage } from '../search/search-page.js';
import { browserKeyStore, rememberedTenant } from '../session/key-store.js';
import { SignInPage } from '../session/sign-in-page.js';
import { LazyPage } from './lazy-page.js';
import { NavBar } from './nav-bar.js';
import { useLocation } from './navigation.js';
import { routeOf, type Route } from './route.js';
import { SessionContext, type Session } from './session-context.js';

const keyStore = browserKeyStore(sessionStorage, localStorage);
const tenantMemory = rememberedTenant(localStorage);

const loadRules = () => import('../rules/rules-page.js').then((m) => m.RulesPage);
const loadRule = () => import('../rules/rule-page.js').then((m) => m.RulePage);
const loadAlerts = () => import('../alerts/alerts-page.js').then((m) => m.AlertsPage);
const loadAlert = () => import('../alerts/alert-page.js').then((m) => m.AlertPage);
const loadSinks = () => import('../sinks/sinks-page.js').then((m) => m.SinksPage);
const loadIndexes = () => import('../indexes/indexes-page.js').then((m) => m.IndexesPage);
const loadKeys = () => import('../keys/keys-page.js').then((m) => m.KeysPage);

type SignedIn = { key: string; me: Me };

/** The console: sign-in, then the page the URL names, for the tenant chosen. */
export function App() {
  const location = useLocation();
  const route = routeOf(location.pathname);
  const [signedIn, setSignedIn] = useState<SignedIn | null>(null);
  const [checking, setChecking] = useState(keyStore.read() !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const [tenantId, setTenantId] = useState<string | null>(null);

  const signIn = useCallback(async (key: string, remember: boolean | null) => {
    const me = await new VigilClient(key, null).me().catch((error: unknown) => {
      if (error instanceof ApiError && error.unauthorized) throw new Error('this key is not valid (unknown or revoked)');
      throw error;
    });
    if (remember !== null) keyStore.save(key, remember);
    const remembered = tenantMemory.read();
    setTenantId(me.tenants.some((t) => t.id === remembered) ? remembered : (me.tenants[0]?.id ?? null));
    setSignedIn({ key, me });
    setNotice(null);
  }, []);

  const signOut = useCallback((why: string | null = null) => {
    keyStore.clear();
    setSignedIn(null);
    setNotice(why);
  }, []);

  useEffect(() => {
    const key = keyStore.read();
    if (!key) return;
    signIn(key, null)
      .catch((e: unknown) => signOut(`Signed out: ${messageOf(e)}`))
      .finally(() => setChecking(false));
  }, []);

  const session = useMemo<Session | null>(() => {
    if (!signedIn || !tenantId) return null;
    const client = new VigilClient(signedIn.key, tenantId, async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 401) signOut('Signed out: the server no longer accepts this key.');
      return response;
    });
    return { client, me: signedIn.me, tenantId };
  }, [signedIn, tenantId]);

  if (checking) return <p class="loading">Signing in…</p>;
  if (!signedIn) return <SignInPage onSignIn={(key, remember) => signIn(key, remember)} notice={notice} />;
  if (!session) return <p class="error">This key holds no tenant.</p>;
  const chooseTenant = (id: string): void => {
    tenantMemory.save(id);
    setTenantId(id);
  };
  return (
    <SessionContext.Provider value={session}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar route={route} me={session.me} tenantId={session.tenantId} onTenant={chooseTenant} onSignOut={() => signOut()} />
      <main id="main" tabIndex={-1} key={session.tenantId}>
        <PageFor route={route} />
      </main>
    </SessionContext.Provider>
  );
}

function PageFor({ route }: { route: Route }) {
  switch (route.page) {
    case 'search':
      return <SearchPage />;
    case 'rules':
      return <LazyPage load={loadRules} props={{}} />;
    case 'rule':
      return <LazyPage load={loadRule} props={{ id: route.id }} />;
    case 'alerts':
      return <LazyPage load={loadAlerts} props={{}} />;
    case 'alert':
      return <LazyPage load={loadAlert} props={{ id: route.id }} />;
    case 'sinks':
      return <LazyPage load={loadSinks} props={{}} />;
    case 'indexes':
      return <LazyPage load={loadIndexes} props={{}} />;
    case 'keys':
      return <LazyPage load={loadKeys} props={{}} />;
    case 'not-found':
      return (
        <section class="page">
          <h1>Page not found</h1>
          <p>
            There is no console page at <code>{route.path}</code>.
          </p>
        </section>
      );
  }
}
