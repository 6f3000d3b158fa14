/**
 * Copies encoded event heads into shared slabs, returning each as a view, rather than each into
 * an ArrayBuffer of its own: a batch of 20,000 Windows rows made 20,000 backing stores, and the
 * garbage collector took a tenth of ingest's main thread (a CPU profile of the Windows replay).
 * Writing a row into a reused writer and copying it here also spares growing one batch-sized
 * buffer, which copied it whole at each doubling. A slab lives as long as any row in it.
 */
export class RowSlabs {
  private slab: Buffer;
  private used = 0;

  constructor(private readonly slabBytes = 8 * 1024 * 1024) {
    this.slab = Buffer.allocUnsafeSlow(slabBytes);
  }

  /** A copy of `bytes` (which the caller may then overwrite), as a view into a slab. */
  copy(bytes: Buffer): Uint8Array {
    if (this.used + bytes.length > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(Math.max(this.slabBytes, bytes.length));
      this.used = 0;
    }
    bytes.copy(this.slab, this.used);
    const row = this.slab.subarray(this.used, this.used + bytes.length);
    this.used += bytes.length;
    return row;
  }
}
