import { describe } from 'vitest';
import { describeAlertContract } from './alert-contract.js';
import { describeApiKeyContract } from './api-key-contract.js';
import { describeAuditContract } from './audit-contract.js';
import { describeCompatibilityContract } from './compatibility-contract.js';
import { describeCreationOrderPaginationContract } from './creation-order-pagination-contract.js';
import { describeDetectionRuleContract } from './detection-rule-contract.js';
import { describeDetectionStateContract } from './detection-state-contract.js';
import { describeEventSinkContract } from './event-sink-contract.js';
import { describeIndexContract } from './index-contract.js';
import { describeIndexPaginationContract } from './index-pagination-contract.js';
import { describeIngestReceiptContract } from './ingest-receipt-contract.js';
import { describeMigrationContract } from './migration-contract.js';
import { describeScaleOutContract } from './scale-out-contract.js';
import { useMigratedStore, type StoreFactory } from './store-fixtures.js';
import { describeSyncSourceContract } from './sync-source-contract.js';
import { describeTenantContract } from './tenant-contract.js';

export type { StoreFactory } from './store-fixtures.js';

/**
 * The Store contract suite: every adapter runs it (ARCHITECTURE.md section 3), so behaviour the
 * rest of the service relies on is written down once. `makeStore` returns a new, empty store
 * per call (unmigrated, or migrated already when an adapter reuses emptied schemas); each test
 * migrates its own and closes it afterwards.
 */
export function describeStoreContract(name: string, makeStore: StoreFactory): void {
  describe(`store contract: ${name}`, () => {
    const store = useMigratedStore(makeStore);
    describeMigrationContract(store);
    describeTenantContract(store);
    describeApiKeyContract(store);
    describeIndexContract(store);
    describeIndexPaginationContract(store);
    describeAuditContract(store);
    describeDetectionRuleContract(store);
    describeEventSinkContract(store);
    describeCreationOrderPaginationContract(store);
    describeDetectionStateContract(store);
    describeAlertContract(store);
    describeSyncSourceContract(store);
    describeCompatibilityContract(store);
    describeIngestReceiptContract(store);
    describeScaleOutContract(store);
  });
}
