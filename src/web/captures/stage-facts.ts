// The capture page's stage panel and its timeline tell one story: both come from here.
// Stages that finished come from the provenance record; the stage that failed (or is being
// retried) and its error come from the activity timeline of the same run.
import type { Activity, Capture, ProvenanceStage } from '../lib/types.js';

export const STAGES = ['fetch', 'extract', 'summarize', 'tag', 'embed', 'classify', 'link'] as const;
export type StageName = (typeof STAGES)[number];

export const STAGE_LABELS: Record<StageName, string> = {
  fetch: 'Fetch', extract: 'Extract the text', summarize: 'Summarise', tag: 'Tag', embed: 'Embed', classify: 'File in PARA', link: 'Suggest links',
};

export type StageState = 'done' | 'failed' | 'retrying' | 'running' | 'waiting' | 'not run';

export interface StageFact {
  stage: StageName;
  state: StageState;
  done?: ProvenanceStage;
  error?: string;
}

export interface RunFacts {
  stages: StageFact[];
  /** Nothing has happened in this run yet (queued). */
  untouched: boolean;
  /** A failure that no single stage owns (the run was interrupted too many times). */
  runError?: string;
}

const RUN_STARTS = new Set(['created', 'retried', 'reingested']);
const detailOf = (a: Activity) => (a.detail && typeof a.detail === 'object' ? (a.detail as Record<string, unknown>) : {});

export function runFacts(c: Capture, provRun: number | null, provStages: ProvenanceStage[], activity: Activity[]): RunFacts {
  let from = 0;
  activity.forEach((a, i) => { if (RUN_STARTS.has(a.kind)) from = i; });
  const run = activity.slice(from);
  const problem = [...run].reverse().find((a) => a.kind === 'failed' || a.kind === 'retry_scheduled');
  const problemStage = problem ? (detailOf(problem).stage as StageName | undefined) : undefined;
  const problemError = problem ? String(detailOf(problem).error ?? c.error ?? '') : undefined;
  // The provenance of an older run is not this run's story.
  const current = provRun === null || provRun === c.attempts ? provStages : [];
  const byName = new Map(current.map((s) => [s.stage as StageName, s]));
  const working = c.status === 'processing' || (c.status === 'archived' && !problem && current.length < STAGES.length && c.processed_at === null);
  let stopped = false;
  const stages = STAGES.map((stage): StageFact => {
    const done = byName.get(stage);
    if (done) return { stage, state: done.finished_at ? 'done' : 'running', done };
    if (stopped) return { stage, state: problem ? 'not run' : 'waiting' };
    stopped = true;
    if (problem && problemStage === stage) return { stage, state: problem.kind === 'failed' ? 'failed' : 'retrying', error: problemError };
    if (problem) return { stage, state: 'not run' }; // the run stopped without naming a stage
    return { stage, state: working ? 'running' : 'waiting' };
  });
  return {
    stages,
    untouched: current.length === 0 && !problem,
    runError: problem && !problemStage ? problemError : undefined,
  };
}
