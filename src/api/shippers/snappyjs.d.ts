/** snappyjs ships no types: the two functions Vigil uses (block format). */
declare module 'snappyjs' {
  /** Decompresses a snappy block; throws when it would decode to more than `maxLength` bytes. */
  export function uncompress<T extends Uint8Array | ArrayBuffer>(compressed: T, maxLength?: number): T;
  export function compress<T extends Uint8Array | ArrayBuffer>(uncompressed: T): T;
  const snappy: { uncompress: typeof uncompress; compress: typeof compress };
  export default snappy;
}
