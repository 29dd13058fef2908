import type { Flight, FlightWaiter, FlightWork } from './single-flight.js';
import type { ReadResult } from './result.js';

/**
 * The last object of each kind the read path makes per read, kept so that V8 keeps their hidden
 * classes (maps) through an idle full GC.
 *
 * Why: a class instance's map, and a frozen object's, is reached from the map before it only
 * through a weak transition. When a full GC runs while the engine is idle (no read in flight),
 * as V8's memory reducer does once allocation stops, no object holds those maps and they are
 * collected. Every optimized function that embedded one is thrown away (`--trace-deopt`: "weak
 * objects"), and the next burst of reads runs unoptimized until V8 compiles them again. Measured on the source tree
 * with a full GC before every two passes (separate processes, 6 each): host CPU per miss 14.1
 * against 13.2 µs, and 21 900 against 23 900 files/s, with these kept (then with a cancel hook
 * built with all its fields, since replaced by the flight's work kept here), and `inMicrotask`
 * for `queueMicrotask`. Without idle GCs nothing changes. The
 * maps of Node's own per-message objects are still lost: those are not ours to keep.
 *
 * Object literals with all their fields need no keeping: their map is held by the literal's site.
 */
export class RecentShapes {
  flight: Flight | null = null;
  /** A flight's work (`TextWork`): a settled flight lets go of its own. */
  work: FlightWork | null = null;
  waiter: FlightWaiter | null = null;
  text: ReadResult | null = null;
  stub: ReadResult | null = null;
  other: ReadResult | null = null;

  /** Every answered result passes here; one of each kind is kept. */
  result(result: ReadResult): void {
    if (result.kind === 'text') this.text = result;
    else if (result.kind === 'unchanged') this.stub = result;
    else this.other = result;
  }
}
