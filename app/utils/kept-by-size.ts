// Values kept per process under a key that names their content, up to a total size, least
// recently used out first: the rendered markup of docs/decisions/465, the drawn PDFs of
// docs/decisions/491 and the calendar feeds' files (each key names everything the value was made
// from).

export class KeptBySize<V> {
  private readonly values = new Map<string, V>();
  /** The size of what is kept (characters, bytes: what `sizeOf` measures). */
  size = 0;
  /** Values made (missed) and served again (hit). */
  made = 0;
  reused = 0;

  constructor(
    /** The most kept at once; one value larger than an eighth of it is not kept. */
    readonly limit: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get count(): number {
    return this.values.size;
  }

  /** The kept value, now the most recently used; undefined when none is kept. */
  get(key: string): V | undefined {
    const hit = this.values.get(key);
    if (hit === undefined) return undefined;
    this.values.delete(key);
    this.values.set(key, hit);
    this.reused++;
    return hit;
  }

  /** Keeps a value just made (counted as made), dropping the least recently used beyond the limit. */
  keep(key: string, value: V): V {
    this.made++;
    const size = this.sizeOf(value);
    if (size > this.limit / 8 || this.values.has(key)) return value;
    this.values.set(key, value);
    this.size += size;
    for (const [old, kept] of this.values) {
      if (this.size <= this.limit) break;
      this.values.delete(old);
      this.size -= this.sizeOf(kept);
    }
    return value;
  }
}
