/** Where an implementation may differ from the others, as the contract allows. */
export interface ContractAllowances {
  /**
   * Batches are acknowledged before the engine has read them (the ingest journal), so a batch
   * it cannot read is acknowledged, then kept aside: never stored, never failing the others.
   */
  readonly acknowledgesBeforeWriting?: boolean;
}
