// Each tenant's semantic gate (search/tenant-gate.ts), measured on its own notes: the
// calibration set's queries are asked of them once, and again when the tenant's note count
// has moved by a tenth. A measured gate is kept in storage (semantic_gates), so a tenant is
// measured once, by whichever process first holds its index, and a process meeting it cold
// reads one row. The first query of a tenant never measured waits for the measurement (a
// k-NN per probe, in slices of a few ms between event-loop turns); later ones use the kept
// gate while a new one is measured, so a tenant's ranking changes only when its notes have.
// At start-up, SearchService.prepareGate measures (or reads) the gates of the tenants whose
// indexes were loaded ahead, in the background, so their first queries do not pay for them.
import type { Embedder } from '../../embed/embedder.js';
import { abstentionFloor, calibrationTexts, quantile, type Scale } from '../../search/calibration.js';
import { MIN_PROBED_NOTES, tenantGate, type TenantGate } from '../../search/tenant-gate.js';
import type { VectorStore } from '../../vectors/vector-store.js';
import type { StoredGate } from '../../repos/semantic-gates.repo.js';

/** Notes whose length is sampled (the latest). */
const LENGTH_SAMPLE = 500;
/** The longest the probes run before letting other requests go on. */
const PROBE_SLICE_MS = 8;
/** The note count may move this much before the gate is measured again. */
const REMEASURE_DRIFT = 0.1;

export class SemanticGates {
  private probes: { model: string; vectors: Promise<Float32Array[]> } | undefined;
  private readonly kept = new Map<string, StoredGate>();
  private readonly measuring = new Map<string, Promise<TenantGate>>();
  private readonly reading = new Map<string, Promise<StoredGate | null>>();

  constructor(
    private readonly d: {
      embedder: Pick<Embedder, 'embed' | 'modelId'>;
      vectors: Pick<VectorStore, 'bestSimilarity' | 'isLoading'>;
      /** Text lengths of the tenant's latest notes (a sample). */
      textLengths(tenantId: string, sample: number): Promise<number[]>;
      /** Where measured gates are kept for every process (none: this process's memory only). */
      stored?: { get(tenantId: string): Promise<StoredGate | null>; put(tenantId: string, g: StoredGate, at: string): Promise<void> };
      now?: () => string;
    },
  ) {}

  /** The tenant's gate for a model whose query scale is `scale`; null when it has too few notes to measure. */
  async gateFor(tenantId: string, notes: number, scale: Scale): Promise<TenantGate | null> {
    if (notes < MIN_PROBED_NOTES) return null;
    const model = this.d.embedder.modelId;
    const k = await this.known(tenantId, model);
    if (k && k.model === model && Math.abs(notes - k.notes) <= REMEASURE_DRIFT * k.notes) return k.gate;
    // While its index loads, a k-NN is an exact scan of storage: 60 probes of a large tenant
    // would hold its first searches for seconds. The gate is measured once the index is in.
    if (await this.d.vectors.isLoading(tenantId)) return k && k.model === model ? k.gate : null;
    const pending = this.measure(tenantId, notes, scale, model);
    return k && k.model === model ? k.gate : pending;
  }

  /** The gate this process holds, else the one kept in storage (measured by a process before it, or another one): one read at a time per tenant. */
  private async known(tenantId: string, model: string): Promise<StoredGate | undefined> {
    const k = this.kept.get(tenantId);
    if ((k && k.model === model) || !this.d.stored) return k;
    let r = this.reading.get(tenantId);
    if (!r) {
      r = this.d.stored.get(tenantId).finally(() => this.reading.delete(tenantId));
      this.reading.set(tenantId, r);
    }
    const row = await r;
    if (row && row.model === model && this.kept.get(tenantId)?.model !== model) this.kept.set(tenantId, row);
    return this.kept.get(tenantId) ?? k;
  }

  private measure(tenantId: string, notes: number, scale: Scale, model: string): Promise<TenantGate> {
    let m = this.measuring.get(tenantId);
    if (m !== undefined) return m;
    m = (async () => {
      const probes = await this.probeVectors(model);
      const best: number[] = [];
      let slice = performance.now();
      for (const p of probes) {
        // From the indexes alone (no storage read per probe): sixty round trips on PostgreSQL.
        const score = await this.d.vectors.bestSimilarity(tenantId, p);
        if (score !== null) best.push(score);
        // Probes run for a slice, then requests go on: a small tenant's 60 probes take one
        // turn (one turn each, a tenant's first search waited behind every other request 60 times).
        if (performance.now() - slice > PROBE_SLICE_MS) {
          await new Promise((r) => setImmediate(r));
          slice = performance.now();
        }
      }
      const medianChars = quantile(await this.d.textLengths(tenantId, LENGTH_SAMPLE), 0.5);
      const gate = tenantGate(best, scale, medianChars, abstentionFloor(scale, notes));
      this.kept.set(tenantId, { model, notes, gate });
      // Derived data: a gate that could not be stored is measured again by the next process.
      await this.d.stored?.put(tenantId, { model, notes, gate }, this.d.now?.() ?? new Date().toISOString()).catch(() => undefined);
      return gate;
    })().finally(() => this.measuring.delete(tenantId));
    this.measuring.set(tenantId, m);
    return m;
  }

  private probeVectors(model: string): Promise<Float32Array[]> {
    if (!this.probes || this.probes.model !== model) {
      const texts = calibrationTexts().filter((t) => t.kind === 'query').map((t) => t.text);
      this.probes = { model, vectors: this.d.embedder.embed(texts, 'query') };
      this.probes.vectors.catch(() => (this.probes = undefined));
    }
    return this.probes.vectors;
  }
}
