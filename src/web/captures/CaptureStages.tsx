// The pipeline's stages for the capture's current run, from the same facts as its timeline:
// finished stages with their model, timing and output; the failed stage with its error; the
// rest as not run (after a failure) or waiting.
import { StageOutput } from '../components/StageOutput.js';
import type { Activity, Capture, ProvenanceStage } from '../lib/types.js';
import { runFacts, STAGE_LABELS, type StageFact } from './stage-facts.js';

const STATE_TEXT: Record<StageFact['state'], string> = {
  done: 'done', failed: 'failed', retrying: 'failed, will retry', running: 'running…', waiting: 'waiting', 'not run': 'not run',
};

function timing(s: ProvenanceStage): string {
  if (!s.finished_at) return 'running…';
  const ms = Date.parse(s.finished_at) - Date.parse(s.started_at);
  if (!Number.isFinite(ms)) return '';
  return ms < 1000 ? `took ${ms} ms` : `took ${(ms / 1000).toFixed(1)} s`;
}

export function CaptureStages({ capture, run, stages, activity }: { capture: Capture; run: number | null; stages: ProvenanceStage[]; activity: Activity[] }) {
  const facts = runFacts(capture, run, stages, activity);
  return (
    <>
      {facts.untouched && (
        <p class="muted">{capture.status === 'pending' ? 'Queued: no stage has run yet.' : 'No stage has run in this run.'}</p>
      )}
      {facts.runError && <p class="cp-stage-error" role="alert">{facts.runError}</p>}
      {!facts.untouched && (
        <ol class="stages">
          {facts.stages.map((f) => {
            const cls = f.state === 'failed' || f.state === 'retrying' ? 'cp-stage-failed' : f.state === 'done' ? 'done' : f.state === 'running' ? 'running' : 'cp-stage-skipped';
            return (
              <li key={f.stage} class={cls} data-stage={f.stage} data-state={f.state}>
                <div class="stage-head">
                  <strong>{STAGE_LABELS[f.stage]}</strong>
                  <span class={`cp-stage-state ${f.state === 'failed' || f.state === 'retrying' ? 'failed' : 'muted'}`}>{STATE_TEXT[f.state]}</span>
                  {f.done && <span class="muted">{timing(f.done)}</span>}
                </div>
                {f.done?.model && <div class="cp-model">by {f.done.model}</div>}
                {f.error && <p class="cp-stage-error">{f.error}</p>}
                {f.done && <StageOutput output={f.done.output} />}
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}
