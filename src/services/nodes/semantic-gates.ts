// Each tenant's semantic gate (search/tenant-gate.ts), measured on its own notes: the
// calibration set's queries are asked of them once, and again when the tenant's note count
// has moved by a tenth. The first query of a tenant waits for the measurement (a k-NN per
// probe, in slices of a few ms between event-loop turns); later ones use the kept gate while a new one is
// measured, so a tenant's ranking changes only when its notes have.
import type { Embedder } from '../../embed/embedder.js';
import { abstentionFloor, calibrationTexts, quantile, type Scale } from '../../search/calibration.js';
import { MIN_PROBED_NOTES, tenantGate, type TenantGate } from '../../search/tenant-gate.js';
import type { VectorStore } from '../../vectors/vector-store.js';

/** Notes whose length is sampled (the latest). */
const LENGTH_SAMPLE = 500;
/** The longest the probes run before letting other requests go on. */
const PROBE_SLICE_MS = 8;
/** The note count may move this much before the gate is measured again. */
const REMEASURE_DRIFT = 0.1;

interface Kept {
  model: string;
  notes: number;
  gate: TenantGate;
}

export class SemanticGates {
  private probes: { model: string; vectors: Promise<Float32Array[]> } | undefined;
  private readonly kept = new Map<string, Kept>();
  private readonly measuring = new Map<string, Promise<TenantGate>>();

  constructor(
    private readonly d: {
      embedder: Pick<Embedder, 'embed' | 'modelId'>;
      vectors: Pick<VectorStore, 'bestSimilarity' | 'isLoading'>;
      /** Text lengths of the tenant's latest notes (a sample). */
      textLengths(tenantId: string, sample: number): Promise<number[]>;
    },
  ) {}

  /** The tenant's gate for a model whose query scale is `scale`; null when it has too few notes to measure. */
  async gateFor(tenantId: string, notes: number, scale: Scale): Promise<TenantGate | null> {
    if (notes < MIN_PROBED_NOTES) return null;
    const model = this.d.embedder.modelId;
    const k = this.kept.get(tenantId);
    const fresh = k && k.model === model && Math.abs(notes - k.notes) <= REMEASURE_DRIFT * k.notes;
    if (fresh) return k.gate;
    // While its index loads, a k-NN is an exact scan of storage: 60 probes of a large tenant
    // would hold its first searches for seconds. The gate is measured once the index is in.
    if (await this.d.vectors.isLoading(tenantId)) return k && k.model === model ? k.gate : null;
    const pending = this.measure(tenantId, notes, scale, model);
    return k && k.model === model ? k.gate : pending;
  }

  /** Forgets a tenant (deleted, or its notes replaced wholesale). */
  forget(tenantId: string): void {
    this.kept.delete(tenantId);
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
