/**
 * Indexes through the API (interface 4.4) as ingest creates them: the timestamp field given at
 * creation is tried first, then the default list, each field once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/services/index.js';
import { defaultTimestampFields } from '../../src/ingest/index.js';
import { openApiHarness, type ApiHarness } from '../support/api-harness.js';

let h: ApiHarness;
let acme: string;

beforeAll(async () => {
  h = await openApiHarness();
  acme = await h.keyFor('acme');
}, 120_000);
afterAll(async () => h?.close());

async function timestampFieldsOf(name: string): Promise<string[]> {
  const list = await h.call('GET', '/v1/index?tenant_id=acme', acme);
  const index = list.body.data.indexes.find((i: any) => i.name === name);
  const one = await h.call('GET', `/v1/index/${index.id}`, acme);
  expect(one.body.timestamp_fields).toEqual(index.timestamp_fields);
  return index.timestamp_fields;
}

describe('an index created by ingest with timestamp_field', () => {
  it.each([
    ['ts', 'one of the defaults: listed once, first'],
    ['when', 'a field of its own: first, then the defaults'],
  ])('%s (%s)', async (field) => {
    const r = await h.app.inject({
      method: 'POST',
      url: `/v1/ingest?tenant_id=acme&index=by_${field}&create_index=true&timestamp_field=${field}`,
      headers: { authorization: `Bearer ${acme}`, 'content-type': 'application/x-ndjson' },
      payload: `${JSON.stringify({ [field]: '2026-11-20T10:00:00Z', n: 1 })}\n`,
    });
    expect(r.json()).toMatchObject({ ingested: 1, rejected: 0 });
    expect(await timestampFieldsOf(`by_${field}`)).toEqual([field, ...defaultTimestampFields.filter((f) => f !== field)]);
  });

  it('an index created with a field listed twice keeps it once, in its first place (vigil index create)', async () => {
    await h.runtime.services.indexes.create('acme', { name: 'twice', timestampFields: ['when', 'ts', 'when'] }, cliActor);
    expect(await timestampFieldsOf('twice')).toEqual(['when', 'ts']);
  });
});
