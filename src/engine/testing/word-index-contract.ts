import { describe, expect, it } from 'vitest';
import { searchWordsExpression, searchWordsToken, sqlString } from '../../core/index.js';
import type { Engine } from '../engine.js';
import { anEvent, eventually, insert, uniqueTenant } from './engine-fixtures.js';

// Values whose words differ between the language (D9: `_` joins) and splitByNonAlpha (`_` splits).
const texts = ['user_admin_backup', 'user-admin-backup', 'ADMIN ok', 'héllo_wörld', 'Admin_'];

// word → how many of `texts` hold it as a whole word, letter case folded (D9, D10)
const expected: ReadonlyArray<readonly [string, number]> = [
  ['user_admin_backup', 1],
  ['admin', 2],
  ['ADMIN', 2],
  ['admin_', 1],
  ['user', 1],
  ['backup', 1],
  ['héllo_wörld', 1],
  ['héllo', 0],
  ['ok', 1],
];

/**
 * The word index (`search_words`, core/search-words.ts): the compiler names its expression to look
 * a word up, so the schema must build the index on exactly that expression, with the language's
 * words, and an upgraded store must get it for the parts it already holds.
 */
export function describeWordIndexContract(current: () => Engine): void {
  describe('word index', () => {
    const lookup = (tenant: string, word: string) =>
      `SELECT count() AS n FROM logs WHERE tenant = ${sqlString(tenant)} AND hasToken(${searchWordsExpression}, ${sqlString(searchWordsToken(word))})`;

    async function countsOf(tenant: string, settings = ''): Promise<Array<[string, number]>> {
      const counts: Array<[string, number]> = [];
      for (const [word] of expected) {
        const result = await current().query<{ n: string }>(lookup(tenant, word) + settings);
        counts.push([word, Number(result.rows[0]?.n)]);
      }
      return counts;
    }

    async function insertTexts(tenant: string): Promise<void> {
      await insert(
        current(),
        texts.map((text) => anEvent({ tenant, attrs: { message: text } })),
      );
    }

    it('looks up the language’s words, case folded, and answers from the index alone', async () => {
      const tenant = uniqueTenant();
      await insertTexts(tenant);
      expect(await countsOf(tenant)).toEqual(expected);
      expect(await countsOf(tenant, ' SETTINGS use_skip_indexes = 0')).toEqual(expected);
      // The engine reads the lookup's answer from the index (a virtual column), not the text.
      const plan = await current().query<{ explain: string }>(`EXPLAIN actions = 1 ${lookup(tenant, 'admin')}`);
      expect(plan.rows.map((r) => r.explain).join('\n')).toContain('__text_index_search_words_');
    });

    it('a store upgraded from schema 3 gets the word index, also for the parts it already holds', async () => {
      const engine = current();
      // Schema 3: words as splitByNonAlpha cuts them, in index search_txt.
      await engine.exec('ALTER TABLE logs DROP INDEX IF EXISTS search_words');
      await engine.exec('ALTER TABLE logs ADD INDEX IF NOT EXISTS search_txt lower(search_text) TYPE text(tokenizer = splitByNonAlpha)');
      await engine.exec('DELETE FROM vigil_schema WHERE version > 3');
      const tenant = uniqueTenant();
      await insertTexts(tenant);

      await engine.init();

      const indexes = await engine.query<{ name: string }>("SELECT name FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = 'logs' ORDER BY name");
      expect(indexes.rows.map((r) => r.name)).toEqual(['field_paths_idx', 'search_words']);
      // Right at once (parts without the index are read row by row), and after the rebuild.
      expect(await countsOf(tenant)).toEqual(expected);
      await eventually(async () => {
        const pending = await engine.query<{ n: string }>("SELECT count() AS n FROM system.mutations WHERE table = 'logs' AND NOT is_done");
        expect(Number(pending.rows[0]?.n)).toBe(0);
      }, 60_000);
      const built = await engine.query<{ bytes: string }>("SELECT data_compressed_bytes AS bytes FROM system.data_skipping_indices WHERE table = 'logs' AND name = 'search_words'");
      expect(Number(built.rows[0]?.bytes)).toBeGreaterThan(0);
      expect(await countsOf(tenant)).toEqual(expected);
    });
  });
}
