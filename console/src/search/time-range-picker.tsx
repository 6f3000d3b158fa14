import { useEffect, useRef, useState } from 'preact/hooks';
import { describeRange, formatInstant, parseTypedInstant, quickRanges, resolveRange, type TimeRange, type TimeUnit, type TimeZoneChoice } from './time-range.js';

export interface TimeRangePickerProps {
  readonly range: TimeRange;
  readonly zone: TimeZoneChoice;
  readonly onChange: (range: TimeRange) => void;
  readonly onZone: (zone: TimeZoneChoice) => void;
}

/** The range button and its panel: quick relative ranges, "last N units", absolute from/to, all time, UTC or local. */
export function TimeRangePicker(props: TimeRangePickerProps) {
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent): void => {
      if (!panel.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const choose = (range: TimeRange): void => {
    props.onChange(range);
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div class="time-range-picker" onKeyDown={(e) => e.key === 'Escape' && open && (setOpen(false), button.current?.focus())}>
      <button type="button" ref={button} class="secondary" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span class="visually-hidden">Time range: </span>
        {describeRange(props.range, props.zone)}
        {props.range.kind === 'absolute' && <span class="zone-tag">{props.zone === 'utc' ? ' UTC' : ' local'}</span>}
      </button>
      {open && (
        <div class="range-panel" ref={panel} role="dialog" aria-label="Time range">
          <fieldset>
            <legend>Quick ranges</legend>
            <ul class="quick-ranges">
              {quickRanges.map((r) => (
                <li key={describeRange(r, 'utc')}>
                  <button type="button" class="link" onClick={() => choose(r)}>
                    {describeRange(r, 'utc')}
                  </button>
                </li>
              ))}
            </ul>
          </fieldset>
          <RelativeForm onChoose={choose} />
          <AbsoluteForm range={props.range} zone={props.zone} onChoose={choose} />
          <fieldset class="zone">
            <legend>Times shown in</legend>
            {(['utc', 'local'] as const).map((z) => (
              <label key={z} class="check">
                <input type="radio" name="zone" checked={props.zone === z} onChange={() => props.onZone(z)} />
                <span>{z === 'utc' ? 'UTC' : `Local time (${Intl.DateTimeFormat().resolvedOptions().timeZone})`}</span>
              </label>
            ))}
          </fieldset>
        </div>
      )}
    </div>
  );
}

function RelativeForm(props: { onChoose: (range: TimeRange) => void }) {
  const [amount, setAmount] = useState('6');
  const [unit, setUnit] = useState<TimeUnit>('h');
  return (
    <form
      class="relative-form"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(amount);
        if (Number.isInteger(n) && n >= 1) props.onChoose({ kind: 'relative', amount: n, unit });
      }}
    >
      <fieldset>
        <legend>Last…</legend>
        <input type="number" min={1} value={amount} aria-label="Amount" onInput={(e) => setAmount((e.currentTarget as HTMLInputElement).value)} />
        <select value={unit} aria-label="Unit" onChange={(e) => setUnit((e.currentTarget as HTMLSelectElement).value as TimeUnit)}>
          <option value="m">minutes</option>
          <option value="h">hours</option>
          <option value="d">days</option>
        </select>
        <button type="submit" class="secondary">
          Apply
        </button>
      </fieldset>
    </form>
  );
}

function AbsoluteForm(props: { range: TimeRange; zone: TimeZoneChoice; onChoose: (range: TimeRange) => void }) {
  const initial = resolveRange(props.range, new Date());
  const [from, setFrom] = useState(formatInstant(initial.start, props.zone));
  const [to, setTo] = useState(formatInstant(initial.end, props.zone));
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      class="absolute-form"
      onSubmit={(e) => {
        e.preventDefault();
        const start = parseTypedInstant(from, props.zone);
        const end = parseTypedInstant(to, props.zone);
        if (!start || !end) return setError('write times as YYYY-MM-DD HH:MM[:SS]');
        if (end <= start) return setError('the end must be after the start');
        setError(null);
        props.onChoose({ kind: 'absolute', start, end });
      }}
    >
      <fieldset>
        <legend>Absolute ({props.zone === 'utc' ? 'UTC' : 'local time'})</legend>
        <label class="field">
          <span>From</span>
          <input value={from} onInput={(e) => setFrom((e.currentTarget as HTMLInputElement).value)} placeholder="2024-05-01 00:00" />
        </label>
        <label class="field">
          <span>To</span>
          <input value={to} onInput={(e) => setTo((e.currentTarget as HTMLInputElement).value)} placeholder="2024-05-02 00:00" />
        </label>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="secondary">
          Apply
        </button>
      </fieldset>
    </form>
  );
}
