import { describe, expect, it } from 'vitest';
import type { Engine, TimeSpan } from '../engine.js';
import { encodeEventRow } from '../encode-event-row.js';
import type { ContractAllowances } from './contract-allowances.js';
import { timeExtentsOf } from '../time-extents.js';
import { anEvent, damaged, insert, ns, uniqueTenant } from './engine-fixtures.js';

const minuteNs = 60_000_000_000n;

/**
 * Expects a span holding [minTsNs, maxTsNs] and less than a minute more at each end: an engine
 * may record whole minutes (time-span-cache.ts), and a wider span is always safe.
 */
function expectSpanHolding(span: TimeSpan | null, minTsNs: bigint, maxTsNs: bigint): void {
  expect(span).not.toBeNull();
  expect(span!.minTsNs).toBeLessThanOrEqual(minTsNs);
  expect(span!.minTsNs).toBeGreaterThan(minTsNs - minuteNs);
  expect(span!.maxTsNs).toBeGreaterThanOrEqual(maxTsNs);
  expect(span!.maxTsNs).toBeLessThan(maxTsNs + minuteNs);
}

/** The time extents inserts record and writtenTimeSpan reads (time-extents.ts). */
export function describeTimeExtentsContract(engine: () => Engine, allowances: ContractAllowances = {}): void {
  describe('time extents', () => {
    it('span every event time written to the indexes asked for, per tenant, within a minute', async () => {
      const tenant = uniqueTenant();
      const other = uniqueTenant();
      expect(await engine().writtenTimeSpan(tenant, ['a'])).toBeNull();
      await insert(engine(), [
        anEvent({ tenant, indexId: 'a', tsNs: ns('2024-05-10T08:00:00.000000007Z') }),
        anEvent({ tenant, indexId: 'a', tsNs: ns('2024-05-09T08:00:00.000000003Z') }),
        anEvent({ tenant, indexId: 'b', tsNs: ns('2024-06-01T00:00:00Z') }),
        anEvent({ tenant: other, indexId: 'a', tsNs: ns('1999-01-01T00:00:00Z') }),
      ]);
      expectSpanHolding(await engine().writtenTimeSpan(tenant, ['a']), ns('2024-05-09T08:00:00.000000003Z'), ns('2024-05-10T08:00:00.000000007Z'));
      expectSpanHolding(await engine().writtenTimeSpan(tenant, ['a', 'b']), ns('2024-05-09T08:00:00.000000003Z'), ns('2024-06-01T00:00:00Z'));
      expect(await engine().writtenTimeSpan(tenant, ['c'])).toBeNull();
      expect(await engine().writtenTimeSpan(tenant, [])).toBeNull();
    });

    it('widen with each batch outside them, and still hold every event left after retention', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant, tsNs: ns('2024-05-10T00:00:00Z') }), anEvent({ tenant, tsNs: ns('2024-05-12T00:00:00Z') })]);
      await insert(engine(), [anEvent({ tenant, tsNs: ns('2024-05-11T00:00:00Z') })]);
      expect(await engine().writtenTimeSpan(tenant, ['main'])).toEqual({ minTsNs: ns('2024-05-10T00:00:00Z'), maxTsNs: ns('2024-05-12T00:00:00Z') });
      await insert(engine(), [anEvent({ tenant, tsNs: ns('1969-12-31T23:59:59.5Z') })]);
      expect(await engine().writtenTimeSpan(tenant, ['main'])).toEqual({ minTsNs: ns('1969-12-31T23:59:59.5Z'), maxTsNs: ns('2024-05-12T00:00:00Z') });
      // Retention may narrow the span to its cutoff (the embedded engine does), never further.
      await engine().deleteEventsBefore(tenant, 'main', ns('2024-05-10T12:00:00Z'));
      const left = await engine().writtenTimeSpan(tenant, ['main']);
      expect(left?.minTsNs).toBeGreaterThanOrEqual(ns('1969-12-31T23:59:59.5Z'));
      expect(left?.minTsNs).toBeLessThanOrEqual(ns('2024-05-11T00:00:00Z'));
      expect(left?.maxTsNs).toBe(ns('2024-05-12T00:00:00Z'));
    });

    it('hold times before 1970 however often they are read (the engine compiles an aggregation it saw three times)', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant, tsNs: ns('2024-05-10T00:00:00Z') })]);
      await insert(engine(), [anEvent({ tenant, tsNs: ns('1969-12-31T23:59:59.5Z') })]);
      for (let read = 0; read < 5; read++) {
        expectSpanHolding(await engine().writtenTimeSpan(tenant, ['main']), ns('1969-12-31T23:59:59.5Z'), ns('2024-05-10T00:00:00Z'));
      }
    });

    it('a store upgraded from schema 6 gets the extents of the events it holds', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant, tsNs: ns('2024-05-10T00:00:00.25Z') }), anEvent({ tenant, indexId: 'b', tsNs: ns('2024-05-12T00:00:00Z') })]);
      // Schema 6 had no time_extents: every event was written without one.
      await engine().exec('DROP TABLE time_extents');
      await engine().exec('DELETE FROM vigil_schema WHERE version > 6');
      await engine().init();
      expect(await engine().writtenTimeSpan(tenant, ['main'])).toEqual({ minTsNs: ns('2024-05-10T00:00:00.25Z'), maxTsNs: ns('2024-05-10T00:00:00.25Z') });
      expect(await engine().writtenTimeSpan(tenant, ['main', 'b'])).toEqual({ minTsNs: ns('2024-05-10T00:00:00.25Z'), maxTsNs: ns('2024-05-12T00:00:00Z') });
    });

    it('go with a deleted index', async () => {
      const tenant = uniqueTenant();
      await insert(engine(), [anEvent({ tenant, indexId: 'gone' }), anEvent({ tenant, indexId: 'kept' })]);
      await engine().deleteIndexEvents(tenant, 'gone');
      expect(await engine().writtenTimeSpan(tenant, ['gone'])).toBeNull();
      expect(await engine().writtenTimeSpan(tenant, ['kept'])).not.toBeNull();
    });

    it('are recorded before the events: a batch the engine refuses still widens them (wider is safe)', async () => {
      const tenant = uniqueTenant();
      const bad = anEvent({ tenant, tsNs: ns('2030-01-01T00:00:00Z') });
      const inserting = engine().insertEvents({ rows: damaged([encodeEventRow(bad)]), extents: timeExtentsOf([bad]) });
      if (allowances.acknowledgesBeforeWriting) await inserting;
      else await expect(inserting).rejects.toThrow(/inserting events/);
      expect(await engine().writtenTimeSpan(tenant, ['main'])).toEqual({ minTsNs: bad.tsNs, maxTsNs: bad.tsNs });
    });
  });
}
