/** Work still running, so a stop can wait for it. Tracked promises must not reject. */
export class InFlight {
  private readonly pending = new Set<Promise<void>>();

  track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
