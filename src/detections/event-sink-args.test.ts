import { describe, expect, it } from 'vitest';
import { EventSinkArgsChecker, maskSecret } from './event-sink-args.js';
import { validationFieldOf as fieldOf } from './testing/validation-field.js';

const checker = new EventSinkArgsChecker({ allowPrivateDestinations: false });

describe('EventSinkArgsChecker', () => {
  it('splits each variant into public configuration and secrets', () => {
    expect(checker.check({ Chat: { channel_id: 'C123', chat_integration_id: 'ci-1' } })).toEqual({
      type: 'Chat',
      config: { channel_id: 'C123', chat_integration_id: 'ci-1' },
      secrets: null,
      chatIntegrationId: 'ci-1',
    });
    expect(checker.check({ Chat: { channel: '#security', chat_integration_id: 'ci-1' } }).config).toEqual({ channel: '#security', chat_integration_id: 'ci-1' });
    expect(checker.check({ Webhook: { url: 'https://hooks.example.com/a', headers: { 'X-Token': 't0k3n', Accept: 'json' }, signing_secret: 's'.repeat(32) } })).toEqual({
      type: 'Webhook',
      config: { url: 'https://hooks.example.com/a', header_names: ['Accept', 'X-Token'], has_signing_secret: true },
      secrets: { headers: { 'X-Token': 't0k3n', Accept: 'json' }, signing_secret: 's'.repeat(32) },
      chatIntegrationId: null,
    });
    expect(checker.check({ Webhook: { url: 'https://hooks.example.com/a' } }).secrets).toBeNull();
    expect(checker.check({ Pager: { integration_key: 'abcdef0123456789abcdef0123456789' } })).toEqual({
      type: 'Pager',
      config: { integration_key: '********6789' },
      secrets: { integration_key: 'abcdef0123456789abcdef0123456789' },
      chatIntegrationId: null,
    });
  });

  it('on an update of the same variant keeps what is not given, and null clears', () => {
    const current = checker.check({ Webhook: { url: 'https://a.example.com/', headers: { 'X-Token': 't' }, signing_secret: 'x'.repeat(16) } });
    const moved = checker.check({ Webhook: { url: 'https://b.example.com/' } }, current);
    expect(moved.config).toEqual({ url: 'https://b.example.com/', header_names: ['X-Token'], has_signing_secret: true });
    expect(moved.secrets).toEqual(current.secrets);
    const cleared = checker.check({ Webhook: { headers: null, signing_secret: null } }, current);
    expect(cleared).toMatchObject({ config: { url: 'https://a.example.com/', header_names: [], has_signing_secret: false }, secrets: null });
    const chat = checker.check({ Chat: { channel_id: 'C1', chat_integration_id: 'ci' } });
    expect(checker.check({ Chat: { channel: '#x' } }, chat).config).toEqual({ channel: '#x', chat_integration_id: 'ci' });
    const pager = checker.check({ Pager: { integration_key: 'k'.repeat(32) } });
    expect(checker.check({ Pager: {} }, pager)).toEqual(pager);
  });

  it('a new variant needs its create fields', () => {
    const chat = checker.check({ Chat: { channel_id: 'C1', chat_integration_id: 'ci' } });
    expect(fieldOf(() => checker.check({ Webhook: {} }, chat))).toBe('event_sink_args.Webhook.url');
    expect(fieldOf(() => checker.check({ Pager: {} }, chat))).toBe('event_sink_args.Pager.integration_key');
  });

  it.each([
    [{}, 'event_sink_args'],
    [{ Chat: { channel_id: 'C1', chat_integration_id: 'x' }, Pager: { integration_key: 'k'.repeat(32) } }, 'event_sink_args'],
    [{ Slack: { channel_id: 'C1' } }, 'event_sink_args'],
    [{ Chat: { chat_integration_id: 'x' } }, 'event_sink_args.Chat.channel_id'],
    [{ Chat: { channel_id: 'C1' } }, 'event_sink_args.Chat.chat_integration_id'],
    [{ Chat: { channel_id: 'C1', channel: '#a', chat_integration_id: 'x' } }, 'event_sink_args.Chat.channel'],
    [{ Webhook: { url: 'http://169.254.169.254/' } }, 'event_sink_args.Webhook.url'],
    [{ Webhook: { url: 'ftp://example.com/' } }, 'event_sink_args.Webhook.url'],
    [{ Webhook: { url: 'https://example.com/', headers: { 'Content-Type': 'x' } } }, 'event_sink_args.Webhook.headers.Content-Type'],
    [{ Webhook: { url: 'https://example.com/', headers: { 'X-Vigil-Signature': 'x' } } }, 'event_sink_args.Webhook.headers.X-Vigil-Signature'],
    [{ Webhook: { url: 'https://example.com/', headers: { 'Bad Name': 'x' } } }, 'event_sink_args.Webhook.headers'],
    [{ Webhook: { url: 'https://example.com/', headers: { 'X-A': 'x', 'x-a': 'y' } } }, 'event_sink_args.Webhook.headers'],
    [{ Webhook: { url: 'https://example.com/', headers: { 'X-A': 'line\nbreak' } } }, 'event_sink_args.Webhook.headers.X-A'],
    [{ Webhook: { url: 'https://example.com/', signing_secret: 'short' } }, 'event_sink_args.Webhook.signing_secret'],
    [{ Pager: { integration_key: 'has spaces in it' } }, 'event_sink_args.Pager.integration_key'],
  ])('refuses %j naming %s', (args, field) => {
    expect(fieldOf(() => checker.check(args as never))).toBe(field);
  });

  it('lets the operator allow private destinations', () => {
    const lenient = new EventSinkArgsChecker({ allowPrivateDestinations: true });
    expect(lenient.check({ Webhook: { url: 'http://127.0.0.1:9000/hook' } }).config).toMatchObject({ url: 'http://127.0.0.1:9000/hook' });
  });

  it('masks secrets to their last four characters, or entirely when short', () => {
    expect(maskSecret('0123456789abcdef')).toBe('********cdef');
    expect(maskSecret('short-key')).toBe('********');
  });
});
