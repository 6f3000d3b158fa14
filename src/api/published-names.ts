/**
 * Responses in the published product's names, for a server set to `api_compat: scanner`
 * (docs/compatibility.md): its SDK parses sink types and configurations as enums of its own
 * brand words, and result columns under its own namespace. With `vigil` (the default) nothing
 * changes: responses use the interface's words.
 */
import type { ApiCompat } from '../config/index.js';
import { systemNamespace } from '../core/index.js';
import type { EventSinkObject } from './detection-schemas.js';

const publishedSinkTypes: Readonly<Record<string, string>> = { Chat: 'Slack', Pager: 'PagerDuty' };

/** The published namespace of system columns: `@svc.datetime` is `@scanner.datetime`. */
const publishedNamespace = '@scanner';

/**
 * A sink object with the published variant names: `Slack` (its configuration has the
 * `channel_id` and `channel_name` the SDK requires, and `slack_integration_id`) and `PagerDuty`.
 */
export function publishedSink(sink: EventSinkObject, compat: ApiCompat): EventSinkObject {
  const type = publishedSinkTypes[sink.event_sink_type];
  if (compat !== 'scanner' || type === undefined) return sink;
  const config = Object.values(sink.configuration)[0] as Record<string, string> | undefined;
  const configuration =
    type === 'Slack' && config
      ? {
          channel_id: config.channel_id ?? config.channel ?? '',
          // A sink made with channel_id alone has no name to show: the id stands for it.
          channel_name: config.channel ?? config.channel_id ?? '',
          slack_integration_id: config.chat_integration_id ?? '',
        }
      : config;
  return {
    ...sink,
    event_sink_type: type as EventSinkObject['event_sink_type'],
    configuration: { [type]: configuration } as EventSinkObject['configuration'],
    ...(type === 'Slack' && config?.chat_integration_id ? { integration_id: config.chat_integration_id } : {}),
  };
}

/** A result column's published name: `@svc.x` is `@scanner.x`; other names as they are. */
export function publishedColumn(name: string, compat: ApiCompat): string {
  if (compat !== 'scanner') return name;
  return name === systemNamespace || name.startsWith(`${systemNamespace}.`) || name.startsWith(`${systemNamespace}[`)
    ? publishedNamespace + name.slice(systemNamespace.length)
    : name;
}

/** A result row with its columns under their published names. */
export function publishedRow<T>(row: Readonly<Record<string, T>>, compat: ApiCompat): Record<string, T> {
  if (compat !== 'scanner') return row as Record<string, T>;
  const out: Record<string, T> = Object.create(null) as Record<string, T>;
  for (const [name, value] of Object.entries(row)) out[publishedColumn(name, compat)] = value;
  return out;
}
