/** The values a detection rule is made of that every layer names: its state, severity and alert template. */

/** A detection rule's enabled state (docs/interface.md 3.1): Active runs and alerts, Staging runs without alerting, Paused does not run. */
export type EnabledState = 'Active' | 'Staging' | 'Paused';

/** OCSF detection-finding severity names (docs/interface.md 2.4), as stored: the `Information` alias is stored as `Informational`. */
export type Severity = 'Unknown' | 'Informational' | 'Low' | 'Medium' | 'High' | 'Critical' | 'Fatal' | 'Other';

/** An alert template (docs/interface.md 2.6), always in its current label/value form. */
export interface AlertTemplateRecord {
  readonly info: readonly { readonly label: string; readonly value: string; readonly useForDedup: boolean }[];
  readonly actions: readonly { readonly label: string; readonly value: string }[];
}
