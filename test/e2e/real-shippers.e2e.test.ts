/**
 * Real shippers sending to Vigil's Elasticsearch endpoint on 127.0.0.1, with the configuration
 * docs/shippers.md gives. Each runs only where its binary is installed (Debian does not package
 * Fluent Bit, Vector or Filebeat; rsyslog's Elasticsearch output is `rsyslog-elasticsearch`; CI
 * installs nothing by hand); otherwise it is skipped and the reason is printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShipperServer, type ShipperServer } from '../support/shipper-server.js';

interface Shipper {
  readonly binary: string;
  /** Where the binary comes from, for the skip message. */
  readonly source: string;
  /** Config file name and text for a log file, the server's host:port, tenant and key. */
  readonly config: (logFile: string, host: string, port: string, key: string, dataDir: string) => { name: string; text: string };
  readonly args: (configPath: string, dataDir: string) => string[];
}

const shippers: Readonly<Record<string, Shipper>> = {
  'fluent-bit': {
    binary: 'fluent-bit',
    source: 'not packaged by Debian',
    config: (logFile, host, port, key) => ({
      name: 'fluent-bit.conf',
      text: `[SERVICE]\n    Flush 1\n[INPUT]\n    Name tail\n    Path ${logFile}\n    Read_from_Head true\n[OUTPUT]\n    Name es\n    Match *\n    Host ${host}\n    Port ${port}\n    Index shipped\n    HTTP_User acme\n    HTTP_Passwd ${key}\n    Suppress_Type_Name On\n`,
    }),
    args: (configPath) => ['-c', configPath],
  },
  vector: {
    binary: 'vector',
    source: 'not packaged by Debian',
    config: (logFile, host, port, key, dataDir) => ({
      name: 'vector.toml',
      text: `data_dir = "${dataDir}"\n[sources.app]\ntype = "file"\ninclude = ["${logFile}"]\nread_from = "beginning"\n[sinks.vigil]\ntype = "elasticsearch"\ninputs = ["app"]\nendpoints = ["http://${host}:${port}"]\napi_version = "v8"\nbulk.index = "shipped"\nauth.strategy = "basic"\nauth.user = "acme"\nauth.password = "${key}"\n`,
    }),
    args: (configPath) => ['--config', configPath],
  },
  filebeat: {
    binary: 'filebeat',
    source: 'not packaged by Debian',
    config: (logFile, host, port, key) => ({
      name: 'filebeat.yml',
      text: `filebeat.inputs:\n  - type: filestream\n    id: app\n    paths: ["${logFile}"]\noutput.elasticsearch:\n  hosts: ["http://${host}:${port}"]\n  username: acme\n  password: "${key}"\n  index: shipped\nsetup.template.enabled: false\nsetup.ilm.enabled: false\n`,
    }),
    args: (configPath, dataDir) => ['-e', '--strict.perms=false', '-c', configPath, '--path.data', dataDir],
  },
  // rsyslog's omelasticsearch (Debian: rsyslog-elasticsearch) sends `_bulk` in bulk mode.
  rsyslog: {
    binary: 'rsyslogd',
    source: 'Debian packages rsyslog and rsyslog-elasticsearch',
    config: (logFile, host, port, key, dataDir) => ({
      name: 'rsyslog.conf',
      text: [
        `global(workDirectory="${dataDir}")`,
        'module(load="imfile")',
        'module(load="omelasticsearch")',
        `input(type="imfile" File="${logFile}" Tag="app" freshStartTail="off")`,
        'template(name="event" type="list" option.jsonf="on") { property(outname="message" name="msg" format="jsonf") }',
        `action(type="omelasticsearch" server="${host}" serverport="${port}" searchIndex="shipped" template="event" bulkmode="on" uid="acme" pwd="${key}" usehttps="off")`,
      ].join('\n') + '\n',
    }),
    args: (configPath, dataDir) => ['-n', '-f', configPath, '-i', join(dataDir, 'rsyslogd.pid')],
  },
};

const installed = (binary: string): boolean => spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;

for (const [name, shipper] of Object.entries(shippers)) {
  const present = installed(shipper.binary);
  if (!present) console.info(`real shipper test for ${name} skipped: no ${shipper.binary} on PATH (${shipper.source}; install it to run this test)`);
  describe.skipIf(!present)(`${name} (skipped unless ${shipper.binary} is on PATH)`, () => {
    let s: ShipperServer;
    let dir: string;
    beforeAll(async () => {
      s = await openShipperServer();
      await s.createIndex('shipped');
      dir = mkdtempSync(join(tmpdir(), `vigil-${name}-`));
    }, 120_000);
    afterAll(async () => {
      await s?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('ships every line of a log file to the index', async () => {
      const logFile = join(dir, 'app.log');
      const lines = Array.from({ length: 50 }, (_, n) => `2026-05-01T00:00:${String(n).padStart(2, '0')}Z app line ${n} from ${name}`);
      writeFileSync(logFile, lines.join('\n') + '\n');
      const { hostname, port } = new URL(s.url);
      const config = shipper.config(logFile, hostname, port, s.key, dir);
      const configPath = join(dir, config.name);
      writeFileSync(configPath, config.text);
      const child = spawn(shipper.binary, shipper.args(configPath, dir), { stdio: 'ignore' });
      try {
        const deadline = Date.now() + 45_000;
        let stored = 0;
        while (Date.now() < deadline) {
          stored = (await s.query(`@index = shipped "from ${name}"`)).length;
          if (stored >= lines.length) break;
          await new Promise((r) => setTimeout(r, 500));
        }
        expect(stored).toBe(lines.length);
      } finally {
        child.kill('SIGTERM');
      }
    }, 90_000);
  });
}
