import { describe, expect, it } from 'vitest';
import { classifyFirstLine, isBlankLine, secondLineIsEvent } from './detect-format.js';

describe('classifyFirstLine', () => {
  it.each([
    ['an NDJSON event', '{"a":1}', 'ndjson'],
    ['a CloudTrail file on one line', '{"Records":[{"eventName":"GetObject"}]}', 'ndjson'],
    ['a broken NDJSON line (error mid-line)', '{"a":1,,"b":2}', 'ndjson'],
    ['a line with trailing data', '{"a":1} {"b":2}', 'ndjson'],
    ['leading whitespace', '   {"a":1}', 'ndjson'],
    ['the start of a pretty-printed object', '{', 'undecided'],
    ['the start of a pretty CloudTrail file', '{"Records": [', 'undecided'],
    ['an NDJSON line cut short', '{"a":"unfinished', 'undecided'],
    ['a one-line JSON array', '[{"a":1},{"a":2}]', 'json-document'],
    ['the start of a pretty array', '[', 'json-document'],
    ['the start of a compact array spread over lines', '[{"a":1},', 'json-document'],
    ['an Apache error log line', '[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok', 'text'],
    ['a bracketed timestamp log line', '[2021-01-01 10:00:00] INFO started', 'text'],
    ['a syslog line', 'Mar 27 13:06:56 ip-10-77-20-248 sshd[1291]: Server listening', 'text'],
    ['an Apache access line', '83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 203023', 'text'],
    ['a JSON string', '"just a string"', 'text'],
    ['a number', '42', 'text'],
  ])('%s → %s', (_name, line, expected) => {
    expect(classifyFirstLine(line)).toBe(expected);
  });
});

describe('secondLineIsEvent', () => {
  it.each([
    ['a complete object: the first line was a truncated NDJSON line', '{"b":2}', true],
    ['a pretty document key line', '  "Records": [', false],
    ['a pretty element with a trailing comma', '    {"eventVersion": "1.08"},', false],
    ['a closing brace', '}', false],
    ['an array', '[1]', false],
  ])('%s', (_name, line, expected) => {
    expect(secondLineIsEvent(line)).toBe(expected);
  });
});

describe('isBlankLine', () => {
  it.each([
    ['', true],
    ['   ', true],
    ['\t \r', true],
    [' x ', false],
    ['\u00a0', false],
  ])('%j → %s', (line, expected) => {
    expect(isBlankLine(line)).toBe(expected);
  });
});
