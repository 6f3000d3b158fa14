/** The kinds of event sink (docs/interface.md 2.7): each has its own arguments, wire format and layout. */
export type EventSinkType = 'Chat' | 'Webhook' | 'Pager';
