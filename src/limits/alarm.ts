/**
 * One timer for the earliest of several times (performance.now() time): set again only when
 * that time changes, so a queue of thousands re-arms it once, not once per entry.
 */
export class Alarm {
  /** When it fires; Infinity: never. */
  at = Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly fire: () => void,
    /** Whether its timer alone keeps the process alive. */
    private readonly keepsAlive: boolean,
  ) {}

  /** Fires at `at` instead; Infinity: never. */
  set(at: number): void {
    if (at === this.at) return;
    clearTimeout(this.timer);
    this.at = at;
    this.timer = undefined;
    if (at === Infinity) return;
    // Timers fire on whole milliseconds, possibly a little early: `fire` checks the time again.
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.at = Infinity;
        this.fire();
      },
      Math.max(1, Math.ceil(at - performance.now())),
    );
    if (!this.keepsAlive) this.timer.unref();
  }
}
