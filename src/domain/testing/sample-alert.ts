import type { AlertMessage } from '../alert-message.js';

/** An alert as the evaluator builds one, for sink tests. */
export function sampleAlert(overrides: Partial<AlertMessage> = {}): AlertMessage {
  return {
    id: '4f1c9a52-7d0e-4c1b-9f3a-2b8e6d5c4a10',
    detectionRuleId: '9b2d7e61-3a4f-4d8c-8e1b-7c6a5f4e3d21',
    tenantId: 'acme',
    name: 'IAM admin policy attached',
    description: 'Fires when AdministratorAccess is attached to a principal.',
    queryText: 'eventName: AttachUserPolicy | stats count() by userIdentity.arn',
    severity: 'High',
    severityId: 4,
    tags: ['source.cloudtrail', 'tactics.ta0004.privilege_escalation'],
    window: { start: '2026-11-21T11:55:00.000000000Z', end: '2026-11-21T12:00:00.000000000Z' },
    timestampNs: '1795262430123456789',
    staging: false,
    resultsTable: {
      columns: ['userIdentity.arn', '@q.count'],
      rows: [
        { 'userIdentity.arn': 'arn:aws:iam::1:user/a', '@q.count': 3 },
        { 'userIdentity.arn': 'arn:aws:iam::1:user/b', '@q.count': 1 },
      ],
      totalRowCount: 2,
    },
    info: [{ label: 'Principal', value: 'arn:aws:iam::1:user/a' }],
    actions: [
      { label: 'Runbook', value: 'https://runbooks.example.com/iam-admin' },
      { label: 'Escalate', value: 'call the on-call lead' },
    ],
    templated: true,
    ...overrides,
  };
}
