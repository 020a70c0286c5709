import { itemAt } from "../common/guards.js";

/**
 * The `k` least values offered, by `compare`, in O(k) memory and O(log k) per offer: a
 * binary heap whose root is the greatest value kept, replaced when a lesser one comes.
 * An ordered query keeps one page's worth of candidates this way, never the resource.
 *
 * @example
 * ```ts
 * const top = new TopK<number>(2, (a, b) => a - b);
 * for (const n of [5, 1, 4, 2]) top.offer(n);
 * top.sorted(); // [1, 2]
 * ```
 */
export class TopK<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  offer(value: T): void {
    const { heap } = this;
    if (heap.length < this.k) {
      heap.push(value);
      this.up(heap.length - 1);
    } else if (heap.length > 0 && this.compare(value, itemAt(heap, 0)) < 0) {
      heap[0] = value;
      this.down(0);
    }
  }

  /** The values kept, least first. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  private up(at: number): void {
    const { heap } = this;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.compare(itemAt(heap, at), itemAt(heap, parent)) <= 0) return;
      this.swap(at, parent);
      at = parent;
    }
  }

  private down(at: number): void {
    const { heap } = this;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let largest = at;
      if (left < heap.length && this.compare(itemAt(heap, left), itemAt(heap, largest)) > 0) largest = left;
      if (right < heap.length && this.compare(itemAt(heap, right), itemAt(heap, largest)) > 0)
        largest = right;
      if (largest === at) return;
      this.swap(at, largest);
      at = largest;
    }
  }

  private swap(a: number, b: number): void {
    const { heap } = this;
    const value = itemAt(heap, a);
    heap[a] = itemAt(heap, b);
    heap[b] = value;
  }
}
