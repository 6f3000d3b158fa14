import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/index.js';
import { DestinationPolicy } from '../destination-policy.js';
import { HttpPoster } from '../http-poster.js';
import type { Sink } from '../sink.js';
import { sampleAlert } from '../../domain/testing/index.js';
import type { Answer, StandInReceiver } from './stand-in-receiver.js';

/** What a sink's contract run needs: its stand-in and the answers that mean each outcome. */
export interface SinkContractSetup {
  startReceiver(): Promise<StandInReceiver>;
  /** The sink under test, sending to the stand-in at `baseUrl` through `http`. */
  makeSink(baseUrl: string, http: HttpPoster, clock: ManualClock): Sink;
  readonly answers: {
    readonly permanent: Answer;
    /** A retryable answer carrying Retry-After: 7 (seconds). */
    readonly rateLimited: Answer;
    readonly serverError: Answer;
  };
}

const timeoutMs = 500;

/**
 * The Sink contract (CONVENTIONS 9): every sink, run against its local stand-in receiver,
 * classifies the same situations the same way, so the delivery worker can treat all alike.
 */
export function describeSinkContract(name: string, setup: SinkContractSetup): void {
  describe(`sink contract: ${name}`, () => {
    const clock = new ManualClock(Date.parse('2026-11-21T12:00:30Z'));
    const http = new HttpPoster(new DestinationPolicy(true), { timeoutMs, userAgent: 'vigil/test' });
    let receiver: StandInReceiver;
    let sink: Sink;
    beforeAll(async () => {
      receiver = await setup.startReceiver();
      sink = setup.makeSink(receiver.url, http, clock);
    });
    afterAll(async () => receiver.stop());

    it('is delivered when the receiver accepts, in one request', async () => {
      const before = receiver.requests.length;
      const outcome = await sink.send(sampleAlert());
      expect(outcome.kind).toBe('delivered');
      expect(outcome.httpStatus).toBeGreaterThanOrEqual(200);
      expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
      expect(receiver.requests.length - before).toBe(1);
    });

    it('is retryable after the time Retry-After gives when rate limited', async () => {
      receiver.answerNext(setup.answers.rateLimited);
      const outcome = await sink.send(sampleAlert());
      expect(outcome).toMatchObject({ kind: 'retryable', retryAfterMs: 7000 });
    });

    it('is retryable on a server error', async () => {
      receiver.answerNext(setup.answers.serverError);
      const outcome = await sink.send(sampleAlert());
      expect(outcome).toMatchObject({ kind: 'retryable', httpStatus: expect.any(Number) });
      expect(outcome.kind === 'retryable' && outcome.httpStatus !== null && outcome.httpStatus >= 500).toBe(true);
    });

    it('is permanent when the receiver refuses the request for good', async () => {
      receiver.answerNext(setup.answers.permanent);
      const outcome = await sink.send(sampleAlert());
      expect(outcome.kind).toBe('permanent');
      expect(outcome.kind === 'permanent' && outcome.error.length > 0).toBe(true);
    });

    it('is retryable when the receiver does not answer in time', async () => {
      receiver.answerNext({ status: 200, body: {}, delayMs: timeoutMs * 4 });
      const outcome = await sink.send(sampleAlert());
      expect(outcome).toMatchObject({ kind: 'retryable', httpStatus: null, error: expect.stringContaining('no answer within') });
    });

    it('is retryable when the receiver is down, and delivered once it is back', async () => {
      await receiver.down();
      try {
        const outcome = await sink.send(sampleAlert());
        expect(outcome).toMatchObject({ kind: 'retryable', httpStatus: null, error: expect.stringContaining('ECONNREFUSED') });
      } finally {
        await receiver.up();
      }
      expect((await sink.send(sampleAlert())).kind).toBe('delivered');
    });

    it('is permanent, and sends nothing, when the destination policy refuses the address', async () => {
      const strict = setup.makeSink(receiver.url, new HttpPoster(new DestinationPolicy(false), { timeoutMs, userAgent: 'vigil/test' }), clock);
      const before = receiver.requests.length;
      const outcome = await strict.send(sampleAlert());
      expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringContaining('refused destination') });
      expect(receiver.requests.length).toBe(before);
    });

    it('stops when the caller aborts', async () => {
      receiver.answerNext({ status: 200, body: {}, delayMs: timeoutMs * 2 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const outcome = await sink.send(sampleAlert(), controller.signal);
      expect(outcome.kind).toBe('retryable');
    });
  });
}
