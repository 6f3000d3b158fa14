import { describe, expect, it } from 'vitest';
import { redactHeaders, redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it.each([
    ['/v1/index?tenant_id=default&api_key=SEKRET', '/v1/index?tenant_id=default&api_key=[redacted]'],
    ['/v1/ingest?index=web&apikey=S&access_token=T&TOKEN=U&x-api-key=V', '/v1/ingest?index=web&apikey=[redacted]&access_token=[redacted]&TOKEN=[redacted]&x-api-key=[redacted]'],
    ['/v1/x?api%5Fkey=S&password=P&sig=Z&code=C', '/v1/x?api%5Fkey=[redacted]&password=[redacted]&sig=[redacted]&code=[redacted]'],
    ['https://user:hunter2@hooks.example.com/in?secret=s#frag', 'https://user:[redacted]@hooks.example.com/in?secret=[redacted]#frag'],
    ['https://tokenonly@hooks.example.com/', 'https://[redacted]@hooks.example.com/'],
    ['/v1/index?tenant_id=a&pagination[page_size]=5&design=1', '/v1/index?tenant_id=a&pagination[page_size]=5&design=1'],
    ['/v1/query_progress/abc', '/v1/query_progress/abc'],
    ['/v1/x?flag&api_key', '/v1/x?flag&api_key'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('redactHeaders', () => {
  it('keeps every header name and replaces credential values only', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer k',
        'x-api-key': 'k',
        cookie: 's=1',
        'proxy-authorization': 'Basic x',
        'x-auth-token': 't',
        'content-type': 'application/json',
        host: 'h',
      }),
    ).toEqual({
      authorization: '[redacted]',
      'x-api-key': '[redacted]',
      cookie: '[redacted]',
      'proxy-authorization': '[redacted]',
      'x-auth-token': '[redacted]',
      'content-type': 'application/json',
      host: 'h',
    });
  });
});
