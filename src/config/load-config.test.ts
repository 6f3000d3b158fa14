import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFileKeys, loadConfig } from './load-config.js';

const cwd = mkdtempSync(join(tmpdir(), 'vigil-config-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('loadConfig', () => {
  it('takes the defaults, under the current directory', () => {
    const config = loadConfig({}, {}, cwd);
    expect(config.dataDir).toBe(join(cwd, 'data'));
    expect(config.host).toBe('127.0.0.1');
    expect(config.logLevel).toBe('info');
  });

  it('lets variables win over the config file, and flags over both', () => {
    writeFileSync(join(cwd, 'vigil.config.json'), JSON.stringify({ data_dir: 'from-file', host: '127.0.0.2' }));
    try {
      expect(loadConfig({}, {}, cwd).dataDir).toBe(join(cwd, 'from-file'));
      const env = { VIGIL_DATA_DIR: 'from-env', VIGIL_HOST: '127.0.0.3' };
      expect(loadConfig({}, env, cwd)).toMatchObject({ dataDir: join(cwd, 'from-env'), host: '127.0.0.3' });
      expect(loadConfig({ dataDir: 'from-flag' }, env, cwd).dataDir).toBe(join(cwd, 'from-flag'));
    } finally {
      rmSync(join(cwd, 'vigil.config.json'));
    }
  });

  it('opens a shared PostgreSQL store and a ClickHouse cluster when asked, and names what is wrong otherwise', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'vigil-config-'));
    const env = { VIGIL_STORE_URL: 'postgres://v@db:5432/vigil', CLICKHOUSE_URL: 'http://ch:8123', VIGIL_CLICKHOUSE_CLUSTER: 'events' };
    expect(loadConfig({}, env, cwd)).toMatchObject({ store: { kind: 'postgres', url: 'postgres://v@db:5432/vigil' }, engine: { kind: 'clickhouse', cluster: 'events' } });
    expect(loadConfig({}, {}, cwd)).toMatchObject({ store: { kind: 'sqlite' }, engine: { kind: 'chdb' } });
    expect(() => loadConfig({}, { VIGIL_STORE_URL: 'mysql://x' }, cwd)).toThrow(/store_url must be a postgres:\/\//);
    expect(() => loadConfig({}, { VIGIL_CLICKHOUSE_CLUSTER: 'events' }, cwd)).toThrow(/clickhouse_cluster needs clickhouse_url/);
    expect(() => loadConfig({}, { CLICKHOUSE_URL: 'http://ch:8123', VIGIL_CLICKHOUSE_CLUSTER: 'a b' }, cwd)).toThrow(/clickhouse_cluster must be a cluster name/);
  });

  it('runs the embedded engine behind the ingest journal unless told not to', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'vigil-config-'));
    expect(loadConfig({}, {}, cwd).ingest.journal).toBe(true);
    expect(loadConfig({}, { VIGIL_INGEST_JOURNAL: 'false' }, cwd).ingest.journal).toBe(false);
    writeFileSync(join(cwd, 'vigil.config.json'), JSON.stringify({ ingest_journal: false }));
    expect(loadConfig({}, {}, cwd).ingest.journal).toBe(false);
    writeFileSync(join(cwd, 'vigil.config.json'), JSON.stringify({ ingest_journal: 'no' }));
    expect(() => loadConfig({}, {}, cwd)).toThrow(/ingest_journal must be true or false/);
  });

  it('counts a variable set to the empty string as unset', () => {
    const config = loadConfig(
      {},
      { VIGIL_DATA_DIR: '', VIGIL_HOST: '', VIGIL_LOG_LEVEL: '', VIGIL_CONFIG: '', CLICKHOUSE_URL: '', VIGIL_API_KEY: '', VIGIL_CHAT_API_URL: '' },
      cwd,
    );
    expect(config.dataDir).toBe(join(cwd, 'data'));
    expect(config.host).toBe('127.0.0.1');
    expect(config.logLevel).toBe('info');
    expect(config.engine.kind).toBe('chdb');
    expect(config.cliApiKey).toBeNull();
    expect(config.detections.chatApiUrl).toBeNull();
  });

  it('takes a port from the flag only as digits, by the rule VIGIL_PORT follows', () => {
    expect(loadConfig({ port: '8081' }, { VIGIL_PORT: '8082' }, cwd).port).toBe(8081);
    expect(loadConfig({ port: '0' }, {}, cwd).port).toBe(0);
    for (const typed of ['abc', '0x10', '1e3', '', '-1', ' 80', '80.0']) {
      expect(() => loadConfig({ port: typed }, {}, cwd)).toThrow(`--port: --port must be a whole number, got ${JSON.stringify(typed)}`);
    }
    expect(() => loadConfig({}, { VIGIL_PORT: '0x10' }, cwd)).toThrow('VIGIL_PORT: VIGIL_PORT must be a whole number, got "0x10"');
  });

  it('names the flag, variable or config key that set an out-of-range port', () => {
    expect(() => loadConfig({ port: '65536' }, {}, cwd)).toThrow('--port: --port must be a port from 0 to 65535, got 65536');
    expect(() => loadConfig({}, { VIGIL_PORT: '99999' }, cwd)).toThrow('VIGIL_PORT: VIGIL_PORT must be a port from 0 to 65535, got 99999');
    writeFileSync(join(cwd, 'vigil.config.json'), JSON.stringify({ port: 70000 }));
    try {
      expect(() => loadConfig({}, {}, cwd)).toThrow('port: port must be a port from 0 to 65535, got 70000');
      expect(loadConfig({}, { VIGIL_PORT: '8083' }, cwd).port).toBe(8083);
    } finally {
      rmSync(join(cwd, 'vigil.config.json'));
    }
  });

  it('reports every unknown config file key, suggesting the nearest known one', () => {
    const file = join(cwd, 'vigil.config.json');
    writeFileSync(file, JSON.stringify({ prot: 1, data_dir: 'd', zzz_totally_unknown: true, log_levle: 'warn' }));
    try {
      expect(() => loadConfig({}, {}, cwd)).toThrow(
        `invalid configuration: prot: unknown key "prot" in config file ${file}; did you mean port?; ` +
          `zzz_totally_unknown: unknown key "zzz_totally_unknown" in config file ${file}; ` +
          `log_levle: unknown key "log_levle" in config file ${file}; did you mean log_level?`,
      );
    } finally {
      rmSync(file);
    }
  });

  it('answers with the interface names unless api_compat says scanner, from the variable or the file', () => {
    expect(loadConfig({}, {}, cwd).http.apiCompat).toBe('vigil');
    expect(loadConfig({}, { VIGIL_API_COMPAT: 'scanner' }, cwd).http.apiCompat).toBe('scanner');
    expect(() => loadConfig({}, { VIGIL_API_COMPAT: 'Scanner' }, cwd)).toThrow('VIGIL_API_COMPAT: VIGIL_API_COMPAT must be one of vigil, scanner, got "Scanner"');
    writeFileSync(join(cwd, 'vigil.config.json'), JSON.stringify({ api_compat: 'scanner' }));
    try {
      expect(loadConfig({}, {}, cwd).http.apiCompat).toBe('scanner');
      expect(loadConfig({}, { VIGIL_API_COMPAT: 'vigil' }, cwd).http.apiCompat).toBe('vigil');
    } finally {
      rmSync(join(cwd, 'vigil.config.json'));
    }
  });

  it('knows every key the README documents', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\|[^|]*\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.length).toBeGreaterThan(10);
    for (const key of documented) expect(configFileKeys).toContain(key);
  });
});
