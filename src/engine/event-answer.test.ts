import { describe, expect, it } from 'vitest';
import { EngineError } from '../core/index.js';
import type { EventAnswer } from './engine.js';
import { eventAnswerSettings, parseEventAnswer } from './event-answer.js';

const answer: EventAnswer = { columns: ['row_seq', 'row_raw', 'q1_n'], rawColumn: 'row_raw', parseJson: JSON.parse };

describe('event answers', () => {
  it('write every column as JSON but the raw one, which goes out as stored', () => {
    expect(eventAnswerSettings(answer)).toEqual({
      format_template_resultset_format: '{"rows":[${data}],"rows_read":${rows_read:JSON},"bytes_read":${bytes_read:JSON},"elapsed":${time:JSON}}',
      format_template_row_format: '[${row_seq:JSON},${row_raw:Raw},${q1_n:JSON}]',
      format_template_rows_between_delimiter: ',',
    });
  });

  it('refuse column names the row format cannot hold, and a raw column that is not selected', () => {
    expect(() => eventAnswerSettings({ ...answer, columns: ['row_raw', 'a}b'] })).toThrow(EngineError);
    expect(() => eventAnswerSettings({ ...answer, columns: ['row_raw', '__proto__'] })).toThrow(EngineError);
    expect(() => eventAnswerSettings({ ...answer, rawColumn: 'raw' })).toThrow(EngineError);
  });

  it('read rows by column with the parsed event in place, and the statistics', () => {
    const text = '{"rows":[["7",{"a":{"b":1}},null],["8",{"c":"x"},2.5]],"rows_read":10,"bytes_read":80,"elapsed":0.0125}';
    expect(parseEventAnswer(text, answer)).toEqual({
      rows: [
        { row_seq: '7', row_raw: { a: { b: 1 } }, q1_n: null },
        { row_seq: '8', row_raw: { c: 'x' }, q1_n: 2.5 },
      ],
      columns: answer.columns,
      stats: { rowsRead: 10, bytesRead: 80, elapsedMs: 12.5 },
    });
  });

  it('give null for an answer that is not JSON (a stored raw text that is not), so the caller can ask again', () => {
    expect(parseEventAnswer('{"rows":[["7",plain words,null]],"rows_read":1,"bytes_read":8,"elapsed":0}', answer)).toBeNull();
    expect(parseEventAnswer('[]', answer)).toBeNull();
  });
});
