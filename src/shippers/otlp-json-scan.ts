import { JsonTextCursor, OffShapeJson } from './json-text-cursor.js';
import { AttributesWriter, logRecordEvent, type AttributesText } from './otlp-log-event.js';
import {
  boolValueText,
  bytesValueText,
  doubleValueText,
  intValueText,
  logRecordParts,
  resourcePart,
  scopeText,
  type LogRecordMembers,
  type ResourcePart,
} from './otlp-json-values.js';
import type { ShipperRecord } from './shipper-record.js';

/**
 * Reads an OTLP/HTTP logs request in its JSON encoding straight from the text, writing each
 * record's event as it goes, as the protobuf reader does: no parsed value is built, and strings
 * are copied as they are written when that is how JSON.stringify writes them. Half the cost of
 * the JSON encoding was `JSON.parse` building an object per attribute and AnyValue, the other
 * half writing those values back out as text.
 *
 * It gives the events otlp-logs.ts gives from the parsed value, or null when the text is not
 * valid JSON or has what this scan leaves to that reader (a member given twice where records
 * are listed, an AnyValue with other than one known member, a `stringValue` or `doubleValue`
 * that is not a string or number): the caller then reads it that way.
 */
export function scanOtlpJson(text: string): ShipperRecord[] | null {
  try {
    return new OtlpJsonScan(text).request();
  } catch (error) {
    // RangeError: nesting deeper than the stack; the other reader decides what that gives
    if (error instanceof OffShapeJson || error instanceof RangeError) return null;
    throw error;
  }
}

const offShape = new OffShapeJson();

interface ResourceMembers {
  attributes?: AttributesText | undefined;
  dropped?: unknown;
}

interface ScopeMembers {
  name?: unknown;
  version?: unknown;
  attributes?: AttributesText | undefined;
}

class OtlpJsonScan {
  private readonly c: JsonTextCursor;
  private readonly out: ShipperRecord[] = [];

  constructor(text: string) {
    this.c = new JsonTextCursor(text);
  }

  request(): ShipperRecord[] {
    const c = this.c;
    let listed = false;
    if (c.beginObject())
      do {
        if (c.key() !== 'resourceLogs') c.skip();
        else if (listed) throw offShape;
        else {
          listed = true;
          this.list(() => this.resourceLogs());
        }
      } while (c.nextMember());
    c.end();
    return this.out;
  }

  /** One ResourceLogs. */
  private resourceLogs(): void {
    const c = this.c;
    let resource: ResourceMembers = {};
    let schemaUrl: unknown;
    this.recordsWithHeader(
      'scopeLogs',
      (key) => {
        if (key === 'resource') resource = c.peek() === 123 ? this.resource() : (c.skip(), {});
        else if (key === 'schemaUrl') schemaUrl = c.scalar();
        else return false;
        return true;
      },
      () => this.list(() => this.scopeLogs(resourcePart(resource.attributes, resource.dropped, schemaUrl))),
    );
  }

  /**
   * An object whose member `listKey` lists what holds records and whose other members (read by
   * `header`, which says whether it knew the key) make the part those records share. Records are
   * written as the list is read; when a header member comes after the list, they are written
   * again with it.
   */
  private recordsWithHeader(listKey: string, header: (key: string) => boolean, writeList: () => void): void {
    const c = this.c;
    let listAt = -1;
    let stale = false;
    const first = this.out.length;
    if (c.beginObject())
      do {
        const key = c.key();
        if (key === listKey) {
          if (listAt >= 0) throw offShape;
          listAt = c.pos;
          writeList();
        } else if (header(key)) stale = listAt >= 0;
        else c.skip();
      } while (c.nextMember());
    if (!stale) return;
    this.out.length = first;
    const end = c.pos;
    c.pos = listAt;
    writeList();
    c.pos = end;
  }

  private resource(): ResourceMembers {
    const c = this.c;
    const resource: ResourceMembers = {};
    if (c.beginObject())
      do {
        const key = c.key();
        if (key === 'attributes') resource.attributes = this.attributes();
        else if (key === 'droppedAttributesCount') resource.dropped = c.scalar();
        else c.skip();
      } while (c.nextMember());
    return resource;
  }

  /** One ScopeLogs. */
  private scopeLogs(resource: ResourcePart): void {
    const c = this.c;
    let scope: ScopeMembers = {};
    let schemaUrl: unknown;
    this.recordsWithHeader(
      'logRecords',
      (key) => {
        if (key === 'scope') scope = c.peek() === 123 ? this.scope() : (c.skip(), {});
        else if (key === 'schemaUrl') schemaUrl = c.scalar();
        else return false;
        return true;
      },
      () => this.logRecords(resource, scopeText(scope.name, scope.version, scope.attributes, schemaUrl)),
    );
  }

  private scope(): ScopeMembers {
    const c = this.c;
    const scope: ScopeMembers = {};
    if (c.beginObject())
      do {
        const key = c.key();
        if (key === 'name') scope.name = c.scalar();
        else if (key === 'version') scope.version = c.scalar();
        else if (key === 'attributes') scope.attributes = this.attributes();
        else c.skip();
      } while (c.nextMember());
    return scope;
  }

  private logRecords(resource: ResourcePart, scope: string | undefined): void {
    this.list(() => {
      const log = this.logRecord();
      this.out.push(logRecordEvent(logRecordParts(log), resource, scope));
    });
  }

  private logRecord(): LogRecordMembers {
    const c = this.c;
    const log: LogRecordMembers = {};
    if (c.beginObject())
      do {
        const key = c.key();
        switch (key) {
          case 'body':
            log.body = c.peek() === 123 ? this.anyValue() : (c.skip(), undefined);
            break;
          case 'attributes':
            log.attributes = this.attributes();
            break;
          case 'timeUnixNano':
          case 'observedTimeUnixNano':
          case 'severityText':
          case 'severityNumber':
          case 'traceId':
          case 'spanId':
          case 'flags':
          case 'eventName':
          case 'droppedAttributesCount':
            log[key] = c.scalar();
            break;
          default:
            c.skip();
        }
      } while (c.nextMember());
    return log;
  }

  /** A KeyValue list as an object's text (undefined when empty or not a list). */
  private attributes(): AttributesText | undefined {
    const c = this.c;
    if (c.peek() !== 91) {
      c.skip();
      return undefined;
    }
    const writer = new AttributesWriter();
    if (c.beginArray())
      do {
        if (c.peek() === 123) this.keyValue(writer);
        else c.skip();
      } while (c.nextItem());
    return writer.done();
  }

  private keyValue(into: AttributesWriter): void {
    const c = this.c;
    let keyText: string | undefined;
    let valueText = 'null';
    if (c.beginObject())
      do {
        const key = c.key();
        if (key === 'key') keyText = c.peek() === 34 ? c.stringText() : (c.skip(), undefined);
        else if (key === 'value') valueText = c.peek() === 123 ? this.anyValue() : (c.skip(), 'null');
        else c.skip();
      } while (c.nextMember());
    if (keyText !== undefined) into.addText(keyText, valueText);
  }

  /** An AnyValue (at `{`) as JSON text. */
  private anyValue(): string {
    const c = this.c;
    if (!c.beginObject()) return 'null';
    let text: string;
    switch (c.key()) {
      case 'stringValue':
        if (c.peek() !== 34) throw offShape;
        text = c.stringText();
        break;
      case 'boolValue':
        text = boolValueText(c.scalar());
        break;
      case 'intValue':
        text = intValueText(c.scalar());
        break;
      case 'doubleValue': {
        const code = c.peek();
        if (code === 123 || code === 91) throw offShape;
        text = doubleValueText(c.scalar());
        break;
      }
      case 'bytesValue':
        text = bytesValueText(c.scalar());
        break;
      case 'arrayValue':
        text = this.listValue('[]', () => {
          const items: string[] = []; // an item that is not an AnyValue is null, not left out
          if (c.beginArray())
            do items.push(c.peek() === 123 ? this.anyValue() : (c.skip(), 'null'));
            while (c.nextItem());
          return `[${items.join(',')}]`;
        });
        break;
      case 'kvlistValue':
        text = this.listValue('{}', () => this.attributes()?.text ?? '{}');
        break;
      default:
        throw offShape;
    }
    if (c.nextMember()) throw offShape; // a second member: the other reader picks one
    return text;
  }

  /** An ArrayValue or KeyValueList (`{"values": [...]}`) as text; `empty` when it lists nothing. */
  private listValue(empty: string, values: () => string): string {
    const c = this.c;
    let text = empty;
    if (c.peek() !== 123) {
      c.skip();
      return text;
    }
    if (c.beginObject())
      do {
        if (c.key() !== 'values') c.skip();
        else if (c.peek() === 91) text = values();
        else {
          c.skip();
          text = empty;
        }
      } while (c.nextMember());
    return text;
  }

  /** Calls `item` at each item of the array at the cursor that is an object; anything else is skipped. */
  private list(item: () => void): void {
    const c = this.c;
    if (c.peek() !== 91) {
      c.skip();
      return;
    }
    if (c.beginArray())
      do {
        if (c.peek() === 123) item();
        else c.skip();
      } while (c.nextItem());
  }
}
