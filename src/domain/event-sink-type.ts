/** The kinds of event sink (interface 2.7): each has its own arguments, wire format and layout. */
export type EventSinkType = 'Chat' | 'Webhook' | 'Pager';
